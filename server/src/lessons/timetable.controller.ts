import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID } from 'class-validator';
import { IsCalendarDate } from '../platform/http/dates.js';
import {
  availabilityFor,
  availabilityOfUsers,
  gridTeachers,
  lessonsBetween,
  lessonsOfTeachers,
  type GridLessonRow,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type Actor, CurrentActor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { UuidPipe } from '../platform/http/validation.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { addDays, isTimeZone } from '../core/time/time.js';
import { PageOf, SearchPageQuery, searchTextOf } from '../platform/http/paging.js';
import { LessonRules, lessonScope, readableTimetableUser } from './lessons.policy.js';
import { teacherWeek } from './teacher-grid.js';
import { personFacts } from './teaching-lookup.js';
import { LessonView, TAKING_PLACE, WeekQuery, lessonView, weekBounds } from './lessons.controller.js';

export class TimetableView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() user_name!: string;
  @ApiProperty({ enum: ['teacher', 'student'] }) role!: string;
  @ApiProperty() week_start!: string;
  @ApiProperty({ description: 'The zone the week was read in (the viewer’s)' }) timezone!: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ type: [LessonView] }) lessons!: LessonView[];
  @ApiProperty({
    nullable: true,
    description: 'The teacher’s availability for that week (the week’s own list, else the recurring one)',
    type: Object,
  })
  availability!: unknown;
}

export class Interval {
  @ApiProperty() starts_at!: string;
  @ApiProperty() ends_at!: string;
}

/** A lesson in the grid: its details when the reader may see them, else only that the time is taken. */
export class GridLessonView extends Interval {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'False: a lesson outside the reader’s own scope, shown as busy time only' })
  visible!: boolean;
  @ApiProperty({ nullable: true, type: String }) programme_title!: string | null;
  @ApiProperty({ nullable: true, type: String }) group_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) status!: string | null;
  @ApiProperty({ description: 'Taken as cover for another teacher' }) cover!: boolean;
  @ApiProperty({ description: 'Not wholly inside the teacher’s availability' })
  outside_availability!: boolean;
  @ApiProperty({ description: 'Overlaps another lesson of the same teacher' }) clash!: boolean;
}

export class TeacherGridRow {
  @ApiProperty({ format: 'uuid' }) teacher_id!: string;
  @ApiProperty() teacher_name!: string;
  @ApiProperty({ nullable: true, type: String }) timezone!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'What the teacher asked for (users/me)' })
  requested_number_of_lessons_per_week!: number | null;
  @ApiProperty({ description: 'Lessons taking place this week that the teacher teaches (cover included)' })
  booked_lessons!: number;
  @ApiProperty() has_availability!: boolean;
  @ApiProperty({ type: [Interval] }) availability!: Interval[];
  @ApiProperty({ type: [Interval], description: 'Available time no lesson takes' }) free_slots!: Interval[];
  @ApiProperty({ type: [GridLessonView] }) lessons!: GridLessonView[];
}

export class TeacherGridView extends PageOf(TeacherGridRow) {
  @ApiProperty() week_start!: string;
  @ApiProperty({ description: 'The zone the week was read in (the viewer’s)' }) timezone!: string;
  @ApiProperty() from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ type: [String], description: 'The week’s seven local dates, Monday first' }) days!: string[];
}

export class TeacherGridQuery extends SearchPageQuery {
  @ApiPropertyOptional({ description: 'A Monday (yyyy-MM-dd); default: this week' })
  @IsOptional()
  @IsCalendarDate()
  week_start?: string;
  @ApiPropertyOptional({ description: 'The zone the week is read in; default: the viewer’s' })
  @IsOptional()
  @IsString()
  timezone?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Teachers of a group in a programme of this subject' })
  @IsOptional()
  @IsUUID()
  subject_id?: string;
}

/**
 * A user's week (decision 0053): a teacher's lessons (taught or covered) or a student's (their groups
 * on each lesson's date), read in the viewer's zone, with the teacher's availability. Who may read whom:
 * the user themselves, internal users who read every lesson, and a partner (with lesson details) for
 * their own customer's students (selected students only for link contacts and parents); others 404.
 */
@ApiTags('lessons')
@Controller('api/v1/timetable')
export class TimetableController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get(':userId')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: TimetableView })
  @ApiNotFoundResponse({ description: 'User not found' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('userId', UuidPipe) userId: string,
    @Query() q: WeekQuery,
  ): Promise<TimetableView> {
    const { target, access, teacher } = await readableTimetableUser(this.sql, actor, userId);
    const timezone = await viewerZone(this.sql, actor, q.timezone);
    const week = weekBounds(q.week_start, timezone);
    const rows = await lessonsBetween(this.sql, {
      from: week.from,
      to: week.to,
      status: TAKING_PLACE,
      ...(teacher ? { teacherId: userId } : { studentId: userId }),
      scope: access === 'self' ? null : lessonScope(actor),
    });
    const availability = teacher ? await availabilityFor(this.sql, userId, 'default', week.weekStart) : null;
    return {
      user_id: userId,
      user_name: target.full_name,
      role: teacher ? 'teacher' : 'student',
      week_start: week.weekStart,
      timezone,
      from: week.from,
      to: week.to,
      lessons: rows.map((r) => lessonView(r, actor)),
      availability: availability ?? null,
    };
  }
}

/**
 * The teachers' grid (decision 0058): a page of active teachers by name × the seven days of a week read
 * in the viewer's zone; per teacher the lessons they teach (a covered lesson under its cover teacher),
 * their availability and free slots as instants, lessons outside availability or clashing flagged, and
 * booked lessons beside the number they asked for. Administrators and holders of
 * CAN_VIEW_TEACHERS_TIMETABLES; lessons outside the reader's lesson scope show as busy time only.
 */
@ApiTags('lessons')
@Controller('api/v1/timetables')
export class TeacherTimetablesController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get('teachers')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.teachersGrid)
  @ApiOkResponse({ type: TeacherGridView })
  async teachers(@CurrentActor() actor: Actor, @Query() q: TeacherGridQuery): Promise<TeacherGridView> {
    const timezone = await viewerZone(this.sql, actor, q.timezone);
    const week = weekBounds(q.week_start, timezone);
    const page = await gridTeachers(this.sql, {
      page: q.page,
      size: q.size,
      query: searchTextOf(q),
      subjectId: q.subject_id,
    });
    const ids = page.items.map((t) => t.id);
    const [lessons, availability] = await Promise.all([
      lessonsOfTeachers(this.sql, {
        teacherIds: ids,
        from: week.from,
        to: week.to,
        statuses: TAKING_PLACE,
        scope: lessonScope(actor),
      }),
      availabilityOfUsers(this.sql, ids, 'default', week.weekStart),
    ]);
    const byTeacher = new Map<string, GridLessonRow[]>();
    for (const l of lessons) {
      const who = l.cover_teacher_id ?? l.teacher_id;
      if (who) byTeacher.set(who, [...(byTeacher.get(who) ?? []), l]);
    }
    const iso = (d: Date | string) => new Date(d).toISOString();
    return {
      week_start: week.weekStart,
      timezone,
      from: week.from,
      to: week.to,
      days: Array.from({ length: 7 }, (_, i) => addDays(week.weekStart, i)),
      total: page.total,
      page: page.page,
      size: page.size,
      items: page.items.map((t) => {
        const own = (byTeacher.get(t.id) ?? []).map((l) => ({
          ...l,
          starts_at: iso(l.starts_at),
          ends_at: iso(l.ends_at),
        }));
        const slots = availability.get(t.id)?.availabilities ?? null;
        const zone = t.timezone && isTimeZone(t.timezone) ? t.timezone : 'Europe/London';
        const grid = teacherWeek(week.weekStart, zone, slots, own);
        return {
          teacher_id: t.id,
          teacher_name: t.full_name,
          timezone: t.timezone,
          requested_number_of_lessons_per_week: t.requested_number_of_lessons_per_week,
          booked_lessons: own.length,
          has_availability: slots !== null && slots.length > 0,
          availability: grid.available,
          free_slots: grid.free,
          lessons: own.map((l) => ({
            id: l.id,
            visible: l.visible,
            programme_title: l.visible ? l.programme_title : null,
            group_name: l.visible ? l.group_name : null,
            status: l.visible ? l.status : null,
            cover: l.cover_teacher_id === t.id,
            starts_at: l.starts_at,
            ends_at: l.ends_at,
            outside_availability: grid.outsideAvailability.has(l.id),
            clash: grid.clashes.has(l.id),
          })),
        };
      }),
    };
  }
}

/** The zone a week is read in: the one asked for (validated), else the viewer's, else Europe/London. */
async function viewerZone(sql: SqlClient, actor: Actor, asked: string | undefined): Promise<string> {
  if (asked !== undefined) {
    if (!isTimeZone(asked)) throw new DomainError('invalid', 'timezone: unknown time zone');
    return asked;
  }
  const viewer = await personFacts(sql, actor.userId);
  return viewer?.timezone && isTimeZone(viewer.timezone) ? viewer.timezone : 'Europe/London';
}
