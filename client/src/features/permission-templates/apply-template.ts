/**
 * "Apply template" in the user permission editor: the template replaces the assignable (editable)
 * permissions; everything else in the current choice (type marker, separately granted permissions) stays.
 * Template permissions the user's type cannot hold are ignored.
 */
export function applyTemplate(
  chosen: Iterable<string>,
  editable: ReadonlySet<string>,
  templatePermissions: readonly string[],
): Set<string> {
  const next = new Set([...chosen].filter((p) => !editable.has(p)));
  for (const p of templatePermissions) if (editable.has(p)) next.add(p);
  return next;
}
