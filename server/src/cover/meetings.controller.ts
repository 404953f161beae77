import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { Controller, HttpCode, HttpStatus, Inject, Param, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { lessonById, lessonIdByMeeting, lessonHasAnyOf, studentInLesson } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  metadataFor,
} from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { UuidPipe } from '../platform/http/validation.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { isPartner, isStudent } from '../identity/policy/policy.js';
import { linkedStudentIdsSql, studentScope } from '../core/access/student-scope.js';
import { addMinutes, localOf } from '../core/time/time.js';
import { JOIN_OPENS_MINUTES_BEFORE, meetingAggregate } from './cover-request.decider.js';
import { CoverRules, joinRole } from './cover.policy.js';
import { meetingUrl } from './meeting-config.js';

export class MeetingJoinView {
  @ApiProperty({ description: 'Where to go: the lesson’s meeting (MEETING_BASE_URL + meeting id)' })
  url!: string;
  @ApiProperty({ format: 'uuid' }) lesson_id!: string;
}

/** `dd.MM.yyyy HH:mm` in the lesson's zone. */
export function localStamp(instant: string, timeZone: string): string {
  const { localDate, localTime } = localOf(instant, timeZone);
  const [y, m, d] = localDate.split('-');
  return `${d}.${m}.${y} ${localTime}`;
}

/**
 * Meeting join (decision 0054): the portal records who used the join link of which lesson, when and in
 * which role (`JoinLinkUsed` on `meeting-{meetingId}`), then answers the meeting URL. The window is
 * from 10 minutes before the start to the end; outside it, 409 says when to come back (lesson's zone).
 */
@ApiTags('meetings')
@Controller('api/v1/meetings')
export class MeetingsController {
  constructor(
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  @Post(':meetingId/join')
  @HttpCode(HttpStatus.OK)
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(CoverRules.join)
  @ApiOkResponse({ type: MeetingJoinView })
  @ApiForbiddenResponse({ description: 'You may see the lesson but not join it' })
  @ApiNotFoundResponse({ description: 'No lesson with this meeting that you may see' })
  @ApiConflictResponse({
    description: 'Outside the join window (detail says when to come back), or cancelled',
  })
  async join(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('meetingId', UuidPipe) meetingId: string,
  ): Promise<MeetingJoinView> {
    const lessonId = await lessonIdByMeeting(this.sql, meetingId);
    const lesson = lessonId ? await lessonById(this.sql, lessonId) : null;
    if (!lesson) throw new Problem(HttpStatus.NOT_FOUND, 'Meeting not found');
    const role = joinRole(actor, lesson, {
      studentInLesson:
        isStudent(actor.permissions) && (await studentInLesson(this.sql, lesson.id, actor.userId)),
      partnerSeesLesson: isPartner(actor.permissions) && (await this.partnerSees(actor, lesson)),
    });
    if (role === null) throw new Problem(HttpStatus.NOT_FOUND, 'Meeting not found');
    if (role === 'refused')
      throw new DomainError('forbidden', 'You do not have permission to join this lesson');
    const startsAt = new Date(lesson.starts_at).toISOString();
    await this.commands.run(
      meetingAggregate,
      {
        type: 'UseJoinLink',
        meetingId,
        lessonId: lesson.id,
        customerId: lesson.customer_id,
        lessonStatus: lesson.status,
        startsAt,
        endsAt: new Date(lesson.ends_at).toISOString(),
        opensAtLocal: localStamp(addMinutes(startsAt, -JOIN_OPENS_MINUTES_BEFORE), lesson.timezone),
        userId: actor.userId,
        role,
        now: new Date().toISOString(),
      },
      metadataFor(req),
    );
    return { url: meetingUrl(meetingId), lesson_id: lesson.id };
  }

  /** A partner of the lesson's school; link contacts and parents only for their selected students. */
  private async partnerSees(actor: Actor, lesson: { id: string; customer_id: string }): Promise<boolean> {
    if (!actor.customerId || actor.customerId !== lesson.customer_id) return false;
    const scope = studentScope(actor);
    if (scope.all || scope.linkedTo === null) return true;
    return lessonHasAnyOf(this.sql, lesson.id, linkedStudentIdsSql('$2::uuid'), scope.linkedTo);
  }
}
