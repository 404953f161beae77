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
export async function downloadFile(path: string, query: Query, fallbackName: string): Promise<string> {
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
  saveFile(await response.blob(), name);
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
