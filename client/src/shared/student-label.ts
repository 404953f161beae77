/** A student as people tell them apart (issue 18 item 6): "Name (School, Year 9)". */
export function studentLabel(s: {
  name: string;
  school?: string | null;
  year_group?: string | null;
}): string {
  const context = [s.school, s.year_group].filter((part): part is string => !!part);
  return context.length ? `${s.name} (${context.join(', ')})` : s.name;
}
