/**
 * When a row of `rm_student_links` (alias `l`) still counts (decision 0034): both users exist (not
 * deleted) and the student still belongs to the partner's customer. The one definition, used by the
 * links' own queries and by the user lists' partner scope, so a student who moves customer or is
 * deleted is never shown through an old link.
 */
export const LIVE_LINK = `
  JOIN rm_users p ON p.id = l.partner_id AND p.deleted_at IS NULL AND p.user_type = 'partner'
  JOIN rm_users s ON s.id = l.student_id AND s.deleted_at IS NULL AND s.user_type = 'student'
                 AND s.customer_id = p.customer_id`;

/** SQL: the ids of the students linked to the partner whose id is the parameter `param` (e.g. `$3`). */
export const linkedStudentIdsSql = (param: string) =>
  `SELECT l.student_id FROM rm_student_links l ${LIVE_LINK} WHERE l.partner_id = ${param}`;
