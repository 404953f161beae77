import { Controller, Get, HttpStatus, Inject, Param, Query } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  halfTermOf,
  lessonsBetween,
  listHalfTermReports,
  schoolContactsOf,
  studentFactsOf,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type Actor, CurrentActor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS, isAdmin } from '../identity/policy/policy.js';
import { UuidPipe } from '../platform/http/validation.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { Problem } from '../platform/http/problem.js';
import { addDays, isTimeZone, todayIn } from '../core/time/time.js';
import { isLinkedStudent, personFacts } from '../lessons/teaching-lookup.js';
import { LessonView, TAKING_PLACE, lessonView, weekBounds } from '../lessons/lessons.controller.js';
import { partnerReportScope } from '../half-term-reports/half-term-reports.policy.js';
import { FamilyRules, childInReach, seesChildReports } from './family.policy.js';

export class ChildOverviewQuery {
  @ApiPropertyOptional({ description: 'The zone the weeks and today are read in; default Europe/London' })
  @IsOptional()
  @IsString()
  timezone?: string;
}

export class ChildView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The school (customer)' }) school!: string | null;
  @ApiProperty({ nullable: true, type: String }) year_group!: string | null;
}

export class HalfTermView {
  @ApiProperty({ example: 'Autumn 1' }) name!: string;
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty({
    enum: ['timeframe', 'term'],
    description: 'A half-term report timeframe, or a half of a term of the school calendar',
  })
  source!: string;
}

export class SchoolContactView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: ['super-admin', 'admin', 'link-contact'] }) role!: string;
  @ApiProperty({ description: 'Linked to this child (their link contact)' }) linked!: boolean;
}

export class ChildReportView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() timeframe_name!: string;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ type: Number, description: 'The revision the PDF link gives' }) published_revision!: number;
  @ApiProperty({ nullable: true, type: String }) published_at!: string | null;
  @ApiProperty({ format: 'date' }) release_at!: string;
}

export class ChildOverviewView {
  @ApiProperty({ type: ChildView }) student!: ChildView;
  @ApiProperty({ description: 'Today in the zone' }) today!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ description: 'Monday of this week' }) week_start!: string;
  @ApiProperty({
    type: [LessonView],
    description: 'This and next week’s lessons of the child, cancelled ones included, in start order',
  })
  lessons!: LessonView[];
  @ApiProperty({ type: HalfTermView, nullable: true, description: 'The half term today falls in' })
  half_term!: HalfTermView | null;
  @ApiProperty({
    type: [ChildReportView],
    nullable: true,
    description:
      'Published half-term reports released to the school; null: the reader does not see assessments',
  })
  reports!: ChildReportView[] | null;
  @ApiProperty({ type: [SchoolContactView], description: 'Who to contact at the school about the child' })
  contacts!: SchoolContactView[];
}

/**
 * A parent's (or any partner's) page about one child (issue 18, decision 0062): the child's lessons
 * this and next week, the half term for their attendance figure, the released reports and the
 * school's contacts, in one read. Attendance itself comes from the attendance area's own lists, which
 * the page calls with the half term's dates. Students outside the caller's scope are a 404.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class ChildOverviewController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get(':id/child-overview')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(FamilyRules.read)
  @ApiOkResponse({ type: ChildOverviewView })
  @ApiNotFoundResponse({ description: 'No such student, or not one the caller may see' })
  async overview(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Query() q: ChildOverviewQuery,
  ): Promise<ChildOverviewView> {
    const timezone = q.timezone ?? 'Europe/London';
    if (!isTimeZone(timezone)) throw new DomainError('invalid', 'timezone: unknown time zone');
    const person = await personFacts(this.sql, id);
    const reachable =
      person !== null &&
      (await childInReach(
        actor,
        { id, customerId: person.customer_id, userType: person.user_type },
        (partnerId, studentId) => isLinkedStudent(this.sql, partnerId, studentId),
      ));
    if (!reachable) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');

    const today = todayIn(timezone);
    const { weekStart, from } = weekBounds(today, timezone);
    const { to } = weekBounds(addDays(weekStart, 7), timezone);
    const [facts, lessons, halfTerm, contacts] = await Promise.all([
      studentFactsOf(this.sql, [id]),
      lessonsBetween(this.sql, { from, to, studentId: id, status: [...TAKING_PLACE, 'cancelled'] }),
      halfTermOf(this.sql, id, today),
      schoolContactsOf(this.sql, id),
    ]);
    const student = facts.get(id)!;
    let reports: ChildReportView[] | null = null;
    if (seesChildReports(actor.permissions)) {
      const partnerScope = isAdmin(actor.permissions) ? null : partnerReportScope(actor);
      const page = await listHalfTermReports(this.sql, {
        releasedOnly: true,
        size: 100,
        scope: (bind) =>
          [partnerScope?.(bind), `r.student_id = ${bind(id)}::uuid`].filter(Boolean).join(' AND '),
      });
      reports = page.items.map((r) => ({
        id: r.id,
        timeframe_name: r.timeframe_name,
        programme_title: r.programme_title,
        published_revision: r.published_revision!,
        published_at: r.published_at ? new Date(r.published_at).toISOString() : null,
        release_at: r.release_at,
      }));
    }
    return {
      student: { id, name: student.name, school: student.school, year_group: student.year_group },
      today,
      timezone,
      week_start: weekStart,
      // A parent reads what any lesson reader outside the school's staff reads: no internal notes.
      lessons: lessons.map((l) => ({ ...lessonView(l, actor), notes: null })),
      half_term: halfTerm,
      reports,
      contacts: contacts.map((c) => ({
        id: c.id,
        name: c.full_name,
        email: c.email,
        role: c.customer_type,
        linked: c.linked,
      })),
    };
  }
}
