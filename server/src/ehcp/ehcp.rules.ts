import { EHCP_REMINDERS_STREAM, type EhcpReminderEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/**
 * Pure rules of the EHCP reminder list and of EHCP requests (spec §7, decision 0035). The controller
 * gathers the facts from the read models; these functions decide.
 */

export function evolveReminders(list: ReadonlySet<string>, e: EhcpReminderEvent): ReadonlySet<string> {
  const next = new Set(list);
  for (const id of e.data.removed) next.delete(id);
  for (const id of e.data.added) next.add(id);
  return next;
}

/** The students on the reminder list after these events. */
export const foldReminders = (events: readonly EhcpReminderEvent[]): ReadonlySet<string> =>
  events.reduce(evolveReminders, new Set<string>() as ReadonlySet<string>);

export interface SetReminders {
  studentIds: readonly string[];
  within: ReadonlySet<string> | 'all';
}

/**
 * PUT /users/students/ehcp-reminder: the caller's part of the list becomes exactly `studentIds`.
 * `within` is the set of students the caller answers for (every student for administrators and
 * internal EHCP holders; the students of their own customer they can see for a partner): students
 * outside it stay on the list untouched, and asking for one of them is refused.
 */
export function decideReminders(command: SetReminders, list: ReadonlySet<string>): EhcpReminderEvent[] {
  const inScope = (id: string) => command.within === 'all' || command.within.has(id);
  const wanted = new Set(command.studentIds);
  const outside = [...wanted].filter((id) => !inScope(id));
  if (outside.length > 0)
    throw new DomainError('invalid', `body: not students you can set reminders for (${outside.join(', ')})`);
  const added = [...wanted].filter((id) => !list.has(id));
  const removed = [...list].filter((id) => inScope(id) && !wanted.has(id));
  if (added.length === 0 && removed.length === 0) return [];
  return [{ type: 'EhcpRemindersChanged', data: { added, removed } }];
}

/** The one EHCP reminder list: stream `ehcp-reminders`. */
export const remindersAggregate: Aggregate<ReadonlySet<string>, SetReminders, EhcpReminderEvent> = {
  stream: () => EHCP_REMINDERS_STREAM,
  idOf: () => EHCP_REMINDERS_STREAM,
  initialState: () => new Set(),
  evolve: evolveReminders,
  decide: decideReminders,
};

/** What the rules need to know about a person named in an EHCP request. */
export interface RecipientFacts {
  id: string;
  userType: string;
  customerId: string | null;
  /** Not deactivated and not blocked. */
  canSignIn: boolean;
  /** Their permissions show them the student (always true for staff). */
  seesStudent: boolean;
}

/**
 * Who may be asked for a student's EHCP: someone who can sign in and open the student's files — the
 * provider's staff (administrators and teachers) or a user of the student's own school whose
 * permissions show them the student. Never a
 * student, nor the requester. Returns why not, or null.
 */
export function recipientRefusal(
  recipient: RecipientFacts | null,
  request: { requesterId: string; studentCustomerId: string },
): string | null {
  // Unknown users and other schools' users get the same answer: an id tells nothing about them.
  const unknown = "not on the provider's staff or at the student's school";
  if (!recipient) return unknown;
  if (recipient.userType === 'partner' && recipient.customerId !== request.studentCustomerId) return unknown;
  if (recipient.id === request.requesterId) return 'you cannot ask yourself';
  if (recipient.userType === 'student') return 'students cannot be asked';
  if (!recipient.canSignIn) return 'cannot sign in (deactivated or blocked)';
  if (!recipient.seesStudent) return "cannot see the student's details";
  return null;
}
