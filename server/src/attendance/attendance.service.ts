import { Inject, Injectable } from '@nestjs/common';
import {
  firstStudentJoins,
  lessonStream,
  namesOf,
  plannedAbsencesOn,
  registerOf,
  type ActingPerson,
  type LessonStreamEvent,
  type RegisterEntryListRow,
  type AbsenceReason,
} from '@portal/projections';
import { Commands } from '../platform/event-store/commands.js';
import { EVENT_STORE, SQL_CLIENT } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import type { Actor } from '../platform/auth/request-context.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { CUSTOMER_ROLE_LABELS, typeLabel, type CustomerRole } from '../identity/policy/policy.js';
import { studentsOfGroupOn } from '../lessons/teaching-lookup.js';
import {
  evolveRegister,
  initialRegisterState,
  registerAggregate,
  registerOpensAt,
  suggestionFromJoin,
  teacherAmendDeadline,
  type RegisterBook,
  type RegisterState,
  type RosterSnapshot,
} from './register.decider.js';

/** One student's line as the API shows it (spec: `entries[]` of `GET /lessons/{id}/register`). */
export interface EntryView {
  student_id: string;
  student_name: string | null;
  basis: 'enrolled' | 'guest';
  mark: string | null;
  minutes_late: number | null;
  minutes_missed: number | null;
  absence_reason: string | null;
  suggested_code: string | null;
  source: string | null;
  confirmed: boolean;
  recorded_at: string | null;
  recorded_by: ActingPerson | null;
  /** What the student's first join of the meeting suggests, while they are not marked. */
  suggestion: { mark: 'present' | 'late'; minutes_late: number | null; joined_at: string } | null;
}

export interface RegisterView {
  lesson_id: string;
  opened_at: string | null;
  opens_at: string;
  as_at: string | null;
  voided: boolean;
  teacher_amend_until: string;
  entries: EntryView[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * What the register endpoints need beyond the decider (decision 0056): the roster snapshot at the
 * lesson's date, the acting person's name and position, and the register as a view, from the read
 * model (now) or by folding the lesson stream up to an instant (`as_at`).
 */
@Injectable()
export class AttendanceService {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: Commands,
  ) {}

  /** The lesson and its register, folded from the stream; 404 when there is no such lesson. */
  async lesson(id: string): Promise<RegisterState> {
    const { state } = await this.commands.load(registerAggregate, id);
    if (!state.lesson.exists || !state.lesson.timing) throw new DomainError('not_found', 'Lesson not found');
    return state;
  }

  /** Who acts, as the ledger records them: name and position (staff job title, or a partner's relationship). */
  async actingPerson(actor: Pick<Actor, 'userId' | 'permissions' | 'displayName'>): Promise<ActingPerson> {
    const { rows } = await this.sql.query<{
      full_name: string;
      position: string | null;
      user_type: string;
      customer_type: string | null;
    }>(`SELECT full_name, position, user_type, customer_type FROM rm_users WHERE id = $1`, [actor.userId]);
    const row = rows[0];
    const name = row?.full_name || actor.displayName;
    if (row?.user_type === 'partner')
      return {
        id: actor.userId,
        name,
        position: row.customer_type ? CUSTOMER_ROLE_LABELS[row.customer_type as CustomerRole] : 'Partner',
      };
    return {
      id: actor.userId,
      name,
      position: row?.position?.trim() || typeLabel(actor.permissions) || 'Staff',
    };
  }

  /** The expected roster (the group on the lesson's date) and the planned absences in force that day. */
  async snapshot(state: RegisterState): Promise<RosterSnapshot> {
    const timing = state.lesson.timing!;
    const roster = await studentsOfGroupOn(this.sql, state.lesson.groupId, timing.localDate);
    const planned = await plannedAbsencesOn(this.sql, roster, timing.localDate);
    return {
      roster,
      planned: planned.map((p) => ({
        plannedAbsenceId: p.id,
        studentId: p.student_id,
        absenceReason: p.absence_reason as AbsenceReason,
      })),
    };
  }

  /** The register from the read model (or, before it opens, the expected roster with its prefills). */
  async current(id: string, state: RegisterState): Promise<RegisterView> {
    const { register, entries } = await registerOf(this.sql, id);
    if (!register) {
      const snapshot = await this.snapshot(state);
      return this.fromBook(id, state, this.expected(state.register, snapshot), null);
    }
    const timing = state.lesson.timing!;
    return this.suggest(id, state, {
      lesson_id: id,
      opened_at: iso(register.opened_at),
      opens_at: registerOpensAt(timing.startsAt),
      as_at: null,
      voided: register.voided,
      teacher_amend_until: teacherAmendDeadline(timing.endsAt, timing.timezone),
      entries: entries.map(entryFromRow).sort(byBasisAndName),
    });
  }

  /** Adds the meeting joins' suggestions to the entries not marked yet. */
  private async suggest(id: string, state: RegisterState, view: RegisterView): Promise<RegisterView> {
    if (view.entries.every((e) => e.mark !== null)) return view;
    const joins = await firstStudentJoins(this.sql, id);
    if (joins.size === 0) return view;
    const timing = state.lesson.timing!;
    return {
      ...view,
      entries: view.entries.map((e) => {
        const joined = joins.get(e.student_id);
        const s = e.mark === null && joined ? suggestionFromJoin(joined, timing) : null;
        return s
          ? {
              ...e,
              suggestion: { mark: s.mark, minutes_late: s.minutesLate, joined_at: joined!.toISOString() },
            }
          : e;
      }),
    };
  }

  /** The register exactly as it stood at `asAt`: the lesson stream folded up to that instant. */
  async asAt(id: string, asAt: string): Promise<RegisterView> {
    const at = new Date(asAt).getTime();
    const recorded = await this.store.readStream(lessonStream(id));
    let state = initialRegisterState();
    for (const e of recorded) {
      if (new Date(e.metadata.occurredAt ?? e.createdAt).getTime() > at) break;
      state = evolveRegister(state, { type: e.type, data: e.data } as LessonStreamEvent);
    }
    if (!state.lesson.exists || !state.lesson.timing) throw new DomainError('not_found', 'Lesson not found');
    const book = state.register.opened
      ? state.register
      : this.expected(state.register, { roster: [], planned: [] });
    return this.fromBook(id, state, book, new Date(at).toISOString());
  }

  /** The view of a folded register (after a write, or as at an instant). */
  async fromBook(
    id: string,
    state: RegisterState,
    book: RegisterBook,
    asAt: string | null,
  ): Promise<RegisterView> {
    const timing = state.lesson.timing!;
    const names = await namesOf(
      this.sql,
      book.roster.map((r) => r.studentId),
    );
    const view: RegisterView = {
      lesson_id: id,
      opened_at: book.openedAt,
      opens_at: registerOpensAt(timing.startsAt),
      as_at: asAt,
      voided: book.voided,
      teacher_amend_until: teacherAmendDeadline(timing.endsAt, timing.timezone),
      entries: book.roster
        .map((line): EntryView => {
          const entry = book.entries[line.studentId];
          const prefill = book.prefills[line.studentId];
          const base = {
            student_id: line.studentId,
            student_name: names.get(line.studentId) ?? null,
            basis: line.basis,
          };
          if (entry)
            return {
              ...base,
              mark: entry.mark,
              minutes_late: entry.minutesLate,
              minutes_missed: entry.minutesMissed,
              absence_reason: entry.absenceReason,
              suggested_code: entry.suggestedCode,
              source: entry.source,
              confirmed: entry.source !== 'meeting',
              recorded_at: entry.recordedAt,
              recorded_by: entry.recordedBy,
              suggestion: null,
            };
          return {
            ...base,
            mark: prefill ? 'absent' : null,
            minutes_late: null,
            minutes_missed: null,
            absence_reason: prefill?.absenceReason ?? null,
            suggested_code: null,
            source: prefill ? 'prefill' : null,
            confirmed: false,
            recorded_at: null,
            recorded_by: null,
            suggestion: null,
          };
        })
        .sort(byBasisAndName),
    };
    return asAt === null ? this.suggest(id, state, view) : view;
  }

  /** Before the register opens: the roster it would snapshot, with the reasons already known. */
  private expected(book: RegisterBook, snapshot: RosterSnapshot): RegisterBook {
    const prefills = { ...book.prefills };
    for (const p of snapshot.planned)
      prefills[p.studentId] ??= {
        studentId: p.studentId,
        absenceReason: p.absenceReason,
        source: 'planned_absence',
        plannedAbsenceId: p.plannedAbsenceId,
      };
    return {
      ...book,
      roster: snapshot.roster.map((studentId) => ({ studentId, basis: 'enrolled' })),
      prefills,
    };
  }
}

const byBasisAndName = (a: EntryView, b: EntryView) =>
  a.basis.localeCompare(b.basis) ||
  (a.student_name ?? '').toLowerCase().localeCompare((b.student_name ?? '').toLowerCase()) ||
  a.student_id.localeCompare(b.student_id);

function entryFromRow(r: RegisterEntryListRow): EntryView {
  const marked = r.mark !== null;
  const confirmed = marked && r.source !== 'meeting';
  return {
    student_id: r.student_id,
    student_name: r.student_name,
    basis: r.basis,
    mark: marked ? r.mark : r.prefill_reason ? 'absent' : null,
    minutes_late: r.minutes_late,
    minutes_missed: r.minutes_missed,
    absence_reason: marked ? r.absence_reason : r.prefill_reason,
    suggested_code: r.suggested_code,
    source: marked ? r.source : r.prefill_reason ? 'prefill' : null,
    confirmed,
    recorded_at: iso(r.recorded_at),
    recorded_by: r.recorded_by,
    suggestion: null,
  };
}
