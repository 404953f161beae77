import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { listPlannedAbsences, plannedAbsenceById, type PlannedAbsenceListRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import {
  CurrentActor,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { UuidPipe } from '../platform/http/validation.js';
import { Written } from '../platform/http/written.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { studentInScope, studentScopeSql } from '../core/access/student-scope.js';
import { todayIn, isTimeZone } from '../core/time/time.js';
import { isLinkedStudent, personFacts } from '../lessons/teaching-lookup.js';
import { AttendanceService } from './attendance.service.js';
import { AttendanceRules, mayManageAttendance, studentScopeOf } from './attendance.policy.js';
import { plannedAbsenceAggregate } from './planned-absence.decider.js';
import {
  PlannedAbsenceBody,
  PlannedAbsencePage,
  PlannedAbsenceQuery,
  type PlannedAbsenceView,
} from './attendance.dto.js';

const view = (r: PlannedAbsenceListRow): PlannedAbsenceView => ({
  id: r.id,
  student_id: r.student_id,
  student_name: r.student_name,
  customer_id: r.customer_id,
  from: r.from_date,
  to: r.to_date,
  absence_reason: r.absence_reason,
  note: r.note,
  recorded_by: r.recorded_by,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * Planned absences (decision 0056): a partner with SET_ABSENCE_REASON (link contacts and parents for
 * their selected students) or attendance staff record that a pupil will miss the lessons between two
 * dates; a register opened on such a date pre-fills the reason. Withdrawing keeps the record.
 */
@ApiTags('attendance')
@Controller('api/v1/planned-absences')
export class PlannedAbsencesController {
  constructor(
    private readonly commands: Commands,
    private readonly attendance: AttendanceService,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Get()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readPlannedAbsences)
  @ApiOkResponse({ type: PlannedAbsencePage })
  async list(@CurrentActor() actor: Actor, @Query() q: PlannedAbsenceQuery): Promise<PlannedAbsencePage> {
    const scope = mayManageAttendance(actor.permissions) ? null : studentScopeOf(actor);
    const page = await listPlannedAbsences(this.sql, {
      page: q.page,
      size: q.size,
      studentId: q.student_id,
      customerId: q.customer_id,
      from: q.from,
      to: q.to,
      studentScope: scope
        ? (bind) => studentScopeSql(scope, bind, { id: 'a.student_id', customerId: 'a.customer_id' })
        : null,
    });
    return { ...page, items: page.items.map(view) };
  }

  @Post()
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.reasons)
  @ApiCreatedResponse({ type: Written })
  async create(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Body() body: PlannedAbsenceBody,
  ): Promise<Written> {
    const student = await this.reachableStudent(actor, body.student_id);
    const zone = student.timezone && isTimeZone(student.timezone) ? student.timezone : 'Europe/London';
    const id = randomUUID();
    const { position } = await this.commands.run(
      plannedAbsenceAggregate,
      {
        type: 'RecordPlannedAbsence',
        plannedAbsenceId: id,
        studentId: student.id,
        customerId: student.customer_id!,
        from: body.from,
        to: body.to,
        today: todayIn(zone),
        absenceReason: body.absence_reason,
        note: body.note?.trim() || null,
        by: await this.attendance.actingPerson(actor),
      },
      metadataFor(req),
    );
    return { id, position };
  }

  @Delete(':id')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.reasons)
  @ApiOkResponse({ type: Written })
  @ApiNotFoundResponse({ description: 'Planned absence not found (or not the caller’s)' })
  async withdraw(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<Written> {
    const row = await plannedAbsenceById(this.sql, id);
    if (!row) throw new DomainError('not_found', 'Planned absence not found');
    await this.reachableStudent(actor, row.student_id, 'Planned absence not found');
    const { position } = await this.commands.run(
      plannedAbsenceAggregate,
      { type: 'WithdrawPlannedAbsence', plannedAbsenceId: id },
      metadataFor(req),
    );
    return { id, position };
  }

  /** The student, when the actor may give reasons for them (422 naming the field, or 404 for a record). */
  private async reachableStudent(actor: Actor, studentId: string, notFound?: string) {
    const refuse = () =>
      notFound
        ? new DomainError('not_found', notFound)
        : new DomainError('invalid', 'student_id: not a student you may give absences for');
    const student = await personFacts(this.sql, studentId);
    if (!student || student.user_type !== 'student' || !student.customer_id) throw refuse();
    if (mayManageAttendance(actor.permissions)) return student;
    const ok = await studentInScope(
      studentScopeOf(actor),
      { id: student.id, customerId: student.customer_id },
      (partnerId, sid) => isLinkedStudent(this.sql, partnerId, sid),
    );
    if (!ok) throw refuse();
    return student;
  }
}
