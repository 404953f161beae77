import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../shared/api/client';
import type { ApiSchema, PositionAnswer } from '../../shared/api/types';
import type { Slot } from './profile-rules';

/** Student files and availability (spec §7 "Student files", users/{id}/availability). */

export type StudentFile = ApiSchema<'StudentFileView'>;
export type StudentFileType = StudentFile['file_type'];

/** A student's files and the latest EHCP file (spec §3). */
export type StudentProfile = ApiSchema<'StudentProfileView'>;

interface UploadForm {
  url: string;
  fields: Record<string, string>;
  file_path: string;
  file_id: string;
  expires_at: string;
}

const studentPath = (id: string, rest: string) => `/api/v1/users/students/${encodeURIComponent(id)}${rest}`;

/**
 * Upload one file for a student: ask for a signed form (files-upload-url), post the form and the file to
 * the storage service, then register it on the student (PUT files/{id}). `onProgress` gets 0–100.
 */
export async function uploadStudentFile(
  studentId: string,
  file: File,
  fileType: StudentFileType,
  onProgress: (percent: number) => void,
): Promise<PositionAnswer> {
  const form = await apiRequest<UploadForm>(studentPath(studentId, '/files-upload-url'), {
    query: { file_name: file.name },
  });
  const body = new FormData();
  for (const [key, value] of Object.entries(form.fields)) body.append(key, value);
  body.append('file', file, file.name);
  await postWithProgress(form.url, body, onProgress);
  return apiRequest<PositionAnswer>(`/api/v1/users/students/files/${encodeURIComponent(studentId)}`, {
    method: 'PUT',
    json: { file_path: form.file_path, file_name: file.name, file_type: fileType },
  });
}

/** XMLHttpRequest rather than fetch: fetch reports no upload progress. */
function postWithProgress(url: string, body: FormData, onProgress: (percent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      let detail: unknown;
      try {
        detail = (JSON.parse(xhr.responseText) as { detail?: unknown }).detail;
      } catch {
        detail = undefined;
      }
      reject(new ApiError(xhr.status, detail, xhr.responseText, `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new ApiError(0, undefined, null, 'The storage service could not be reached'));
    xhr.send(body);
  });
}

export async function openStudentFile(studentId: string, file: StudentFile): Promise<void> {
  const link = await apiRequest<{ url: string }>(studentPath(studentId, '/files-download-url'), {
    query: { file_path: file.file_path },
  });
  window.open(link.url, '_blank', 'noopener');
}

export const deleteStudentFiles = (studentId: string, ids: string[]) =>
  apiRequest<PositionAnswer>(studentPath(studentId, '/files/delete'), {
    method: 'POST',
    json: { files_uuids: ids },
  });

// ---- availability ----

export interface AvailabilityView {
  user_id: string;
  type: string;
  requested_week: string | null;
  week: string | null;
  availabilities: Slot[];
  updated_at: string | null;
}

export const availabilityKey = (userId: string, type: string, week: string | null) =>
  ['users', 'availability', userId, type, week ?? 'recurring'] as const;

export function useAvailability(userId: string, type: string, week: string | null) {
  return useQuery({
    queryKey: availabilityKey(userId, type, week),
    queryFn: ({ signal }) =>
      apiRequest<AvailabilityView>(`/api/v1/users/${encodeURIComponent(userId)}/availability`, {
        query: { type, week },
        signal,
      }),
    meta: { silentErrors: true },
  });
}

export const saveAvailability = (userId: string, type: string, week: string | null, slots: Slot[]) =>
  apiRequest<PositionAnswer>(`/api/v1/users/${encodeURIComponent(userId)}/availability`, {
    method: 'POST',
    query: { type, week },
    json: { availabilities: slots },
  });
