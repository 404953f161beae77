import { Body, Controller, Get, HttpStatus, Inject, Param, Put, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  amendmentsOf,
  homeGroupOf,
  namesOf,
  type AmendmentRow,
  type RegisterEntry,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import {
  CurrentActor,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { DomainError, isDomainError } from '../platform/domain/domain-error.js';
import { Problem } from '../platform/http/problem.js';
import { UuidPipe } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { studentInScope } from '../core/access/student-scope.js';
import { isLinkedStudent, personFacts } from '../lessons/teaching-lookup.js';
import {
  AttendanceService,
  type EntryView,
  type RegisterView as RegisterViewData,
} from './attendance.service.js';
import {
  AttendanceRules,
  registerReach,
  registerRole,
  studentScopeOf,
  partnerSetsReasons,
  mayManageAttendance,
} from './attendance.policy.js';
import { registerAggregate, type RegisterState } from './register.decider.js';
import {
  ReasonBody,
  RegisterHistory,
  RegisterQuery,
  RegisterView,
  RegisterWritten,
  TakeRegisterBody,
  type AmendmentView,
} from './attendance.dto.js';

const people = (s: RegisterState) => ({
  customerId: s.lesson.customerId,
  teacherId: s.lesson.teacherId,
  coverTeacherId: s.lesson.coverTeacherId,
});

const values = (e: RegisterEntry) => ({
  mark: e.mark,
  minutes_late: e.minutesLate,
  minutes_missed: e.minutesMissed,
  absence_reason: e.absenceReason,
  suggested_code: e.suggestedCode,
});

/**
 * A lesson's register (decision 0056): `GET` (now, or `as_at` an instant: the lesson stream folded to
 * it), `PUT` (marks for many students; the first mark of a student is the original entry, a change is
 * an amendment that needs a reason), the amendment ledger, and a partner's absence reason. Who may do
 * what is `attendance.policy.ts`; the rules of the register itself are the decider's.
 */
@ApiTags('attendance')
@Controller('api/v1/lessons')
export class RegisterController {
  constructor(
    private readonly commands: Commands,
    private readonly attendance: AttendanceService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get(':id/register')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readRegisters)
  @ApiOkResponse({ type: RegisterView })
  @ApiNotFoundResponse({ description: 'Lesson not found, or not one the caller may see' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Query() q: RegisterQuery,
  ): Promise<RegisterView> {
    const state = await this.attendance.lesson(id);
    const reach = registerReach(actor, people(state));
    if (!reach) throw new DomainError('not_found', 'Lesson not found');
    const view =
      q.as_at !== undefined
        ? await this.attendance.asAt(id, q.as_at)
        : await this.attendance.current(id, state);
    return reach === 'all' ? view : { ...view, entries: await this.visibleEntries(actor, view.entries) };
  }

  @Put(':id/register')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.takeRegisters)
  @ApiOkResponse({ type: RegisterWritten })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  @ApiForbiddenResponse({
    description: 'Not the lesson’s teacher, or the teacher’s amendment deadline has passed',
  })
  @ApiConflictResponse({
    description:
      'The register is not open yet, the lesson is cancelled, or a mark changed without a reason (answers the current `entries`)',
  })
  async take(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: TakeRegisterBody,
  ): Promise<RegisterWritten> {
    const state = await this.attendance.lesson(id);
    const role = registerRole(actor, people(state));
    if (!role) {
      if (registerReach(actor, people(state)))
        throw new Problem(
          HttpStatus.FORBIDDEN,
          'Only the lesson’s teacher or attendance staff take its register',
        );
      throw new DomainError('not_found', 'Lesson not found');
    }
    const guests = await this.guests(state, body);
    const snapshot = await this.attendance.snapshot(state);
    const person = await this.attendance.actingPerson(actor);
    try {
      const result = await this.commands.run(
        registerAggregate,
        {
          type: 'TakeRegister',
          lessonId: id,
          now: new Date().toISOString(),
          actor: { person, role },
          clientKey: body.client_key,
          entries: body.entries.map((e) => ({
            studentId: e.student_id,
            mark: e.mark,
            minutesLate: e.minutes_late ?? null,
            minutesMissed: e.minutes_missed ?? null,
            absenceReason: e.absence_reason ?? null,
            reason: e.reason ?? null,
          })),
          guests,
          ...snapshot,
        },
        metadataFor(req),
      );
      return {
        position: result.position,
        ...(await this.attendance.fromBook(id, result.state, result.state.register, null)),
      };
    } catch (e) {
      if (isDomainError(e, 'conflict') && e.code === 'register_conflict') {
        const now = await this.attendance.lesson(id);
        const view = await this.attendance.fromBook(id, now, now.register, null);
        throw new Problem(HttpStatus.CONFLICT, e.detail, { code: e.code, entries: view.entries });
      }
      throw e;
    }
  }

  @Get(':id/register/history')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readRegisters)
  @ApiOkResponse({ type: RegisterHistory })
  @ApiNotFoundResponse({ description: 'Lesson not found' })
  async history(@CurrentActor() actor: Actor, @Param('id', UuidPipe) id: string): Promise<RegisterHistory> {
    const state = await this.attendance.lesson(id);
    const reach = registerReach(actor, people(state));
    if (!reach) throw new DomainError('not_found', 'Lesson not found');
    let rows: AmendmentRow[] = await amendmentsOf(this.sql, id);
    if (reach === 'students') {
      const allowed = await this.allowedStudents(actor, [...new Set(rows.map((r) => r.student_id))]);
      rows = rows.filter((r) => allowed.has(r.student_id));
    }
    const names = await namesOf(this.sql, [...new Set(rows.map((r) => r.student_id))]);
    return {
      items: rows.map((r): AmendmentView => ({
        student_id: r.student_id,
        student_name: names.get(r.student_id) ?? null,
        original: values(r.original),
        amended: values(r.amended),
        reason: r.reason,
        amended_at: new Date(r.amended_at).toISOString(),
        amended_by: r.amended_by,
      })),
    };
  }

  @Put(':id/register/:studentId/reason')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.reasons)
  @ApiOkResponse({ type: RegisterWritten })
  @ApiNotFoundResponse({ description: 'Lesson or student not found (or not the caller’s)' })
  @ApiConflictResponse({
    description: 'The provider marked the student present (a reason never overrides it)',
  })
  async reason(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Param('studentId', UuidPipe) studentId: string,
    @Body() body: ReasonBody,
  ): Promise<RegisterWritten> {
    const state = await this.attendance.lesson(id);
    if (!mayManageAttendance(actor.permissions)) {
      // A partner: their own customer's lesson, and a student they reach.
      if (!partnerSetsReasons(actor.permissions) || actor.customerId !== state.lesson.customerId)
        throw new DomainError('not_found', 'Lesson not found');
      if (!(await this.allowedStudents(actor, [studentId])).has(studentId))
        throw new DomainError('not_found', 'Student not found');
    }
    const snapshot = await this.attendance.snapshot(state);
    const result = await this.commands.run(
      registerAggregate,
      {
        type: 'ProvideAbsenceReason',
        lessonId: id,
        now: new Date().toISOString(),
        by: await this.attendance.actingPerson(actor),
        studentId,
        absenceReason: body.absence_reason,
        note: body.note?.trim() || null,
        ...snapshot,
      },
      metadataFor(req),
    );
    const book = result.state.register.opened ? result.state.register : null;
    const view: RegisterViewData = book
      ? await this.attendance.fromBook(id, result.state, book, null)
      : await this.attendance.current(id, result.state);
    const entries = mayManageAttendance(actor.permissions)
      ? view.entries
      : await this.visibleEntries(actor, view.entries);
    return { position: result.position, ...view, entries };
  }

  /** Guests named in the body: students of the lesson's school who are not on the roster. */
  private async guests(
    state: RegisterState,
    body: TakeRegisterBody,
  ): Promise<{ studentId: string; homeGroupId: string | null }[]> {
    const guests: { studentId: string; homeGroupId: string | null }[] = [];
    for (const [i, e] of body.entries.entries()) {
      if (!e.guest) continue;
      const person = await personFacts(this.sql, e.student_id);
      if (!person || person.user_type !== 'student' || person.customer_id !== state.lesson.customerId)
        throw new DomainError('invalid', `entries[${i}].student_id: not a student of this lesson’s school`);
      const homeGroupId = await homeGroupOf(
        this.sql,
        e.student_id,
        state.lesson.programmeId,
        state.lesson.timing!.localDate,
      );
      guests.push({ studentId: e.student_id, homeGroupId });
    }
    return guests;
  }

  /** Of these students, those a partner reaches (their customer's; selected ones for link contacts and parents). */
  private async allowedStudents(actor: Actor, studentIds: string[]): Promise<Set<string>> {
    const scope = studentScopeOf(actor);
    const allowed = new Set<string>();
    for (const studentId of studentIds) {
      const person = await personFacts(this.sql, studentId);
      if (!person || person.user_type !== 'student') continue;
      const ok = await studentInScope(
        scope,
        { id: studentId, customerId: person.customer_id },
        (partnerId, sid) => isLinkedStudent(this.sql, partnerId, sid),
      );
      if (ok) allowed.add(studentId);
    }
    return allowed;
  }

  private async visibleEntries(actor: Actor, entries: EntryView[]): Promise<EntryView[]> {
    const allowed = await this.allowedStudents(
      actor,
      entries.map((e) => e.student_id),
    );
    return entries.filter((e) => allowed.has(e.student_id));
  }
}
