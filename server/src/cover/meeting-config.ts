/**
 * Where the join link sends people (decision 0054): `MEETING_BASE_URL` (default
 * `https://meet.example.org/`) followed by the lesson's meeting id. Read once per call, so a test or
 * an operator can change it without a rebuild.
 */
export const DEFAULT_MEETING_BASE_URL = 'https://meet.example.org/';

export function meetingUrl(
  meetingId: string,
  base: string | undefined = process.env.MEETING_BASE_URL,
): string {
  const root = base && base.trim() ? base.trim() : DEFAULT_MEETING_BASE_URL;
  return `${root.endsWith('/') ? root : `${root}/`}${encodeURIComponent(meetingId)}`;
}
