/**
 * Which row a refusal is about: the server names the field as `contacts[i].user_id` (or
 * `contacts.i.notification_frequency` from validation); null when it names none.
 */
export function contactErrorRow(detail: string | undefined): number | null {
  const match = detail?.match(/contacts(?:\[(\d+)\]|\.(\d+))/);
  if (!match) return null;
  return Number(match[1] ?? match[2]);
}
