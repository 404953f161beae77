import { getToken } from '../storage';
import { datedFilename, viewerTimezone } from '../dates';
import { useSession } from '../session';
import { ApiError, TOKEN_HEADER, detailToText, type Query } from './client';

/** The file name of a `Content-Disposition: attachment; filename="…"` header, or `fallback`. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  const match = header ? /filename="?([^";]+)"?/i.exec(header) : null;
  const name = match?.[1]?.trim();
  return name ? name.replace(/[\\/]/g, '_') : fallback;
}

/**
 * Downloads a report (spec §7 "Downloads are binary") with the session token and saves it under the
 * server's file name (tables dated, {@link datedFilename}). Failures reach the caller as an {@link ApiError} with the server's detail.
 */
export async function downloadFile(
  path: string,
  query: Query,
  fallbackName: string,
  /** Told the bytes received so far as a long download streams in (and the response's headers). */
  onProgress?: (received: number, headers: Headers) => void,
): Promise<string> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== null && item !== undefined) params.append(key, String(item));
  const url = params.size ? `${path}?${params.toString()}` : path;
  const headers = new Headers();
  const token = getToken();
  if (token !== null) headers.set(TOKEN_HEADER, token);
  let response: Response;
  try {
    response = await fetch(url, { headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, undefined, undefined, 'The server could not be reached');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { detail?: unknown } | undefined;
    const detail = body?.detail;
    throw new ApiError(response.status, detail, body, detailToText(detail) ?? response.statusText);
  }
  const name = datedFilename(
    filenameFromDisposition(response.headers.get('content-disposition'), fallbackName),
    viewerTimezone(useSession.getState().user),
  );
  saveFile(onProgress ? await readWithProgress(response, onProgress) : await response.blob(), name);
  return name;
}

/** Hands a downloaded file to the browser as a download named `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function readWithProgress(
  response: Response,
  onProgress: (received: number, headers: Headers) => void,
): Promise<Blob> {
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0, response.headers);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received, response.headers);
  }
  return new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? undefined });
}
