import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '../platform/auth/public.decorator.js';
import { tokenFrom } from '../platform/auth/auth.guard.js';
import { ACTOR_LOADER, type ActorLoader } from '../platform/auth/actor-loader.js';
import type { AuthenticatedRequest } from '../platform/auth/request-context.js';
import { SessionService } from '../platform/auth/session.service.js';
import { MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { APP_CONFIG, EVENT_STORE } from '../platform/tokens.js';
import type { AppConfig } from '../platform/config/config.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { Readiness } from '../platform/http/readiness.js';

export class ProjectionHealth {
  @ApiProperty() name!: string;
  @ApiProperty() version!: number;
  @ApiProperty({ description: 'Last applied global position' }) position!: string;
  @ApiProperty({ description: 'Events behind the head of $all' }) lag!: string;
  @ApiProperty({ nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "While this version is built beside the live tables (decision 0065): the version whose tables answer reads meanwhile; position and lag are then the build's progress. Null otherwise.",
  })
  serving_version!: number | null;
}

export class StartingProgressView {
  @ApiProperty({ example: 'students, contacts and one-page profiles' }) stage!: string;
  @ApiProperty({ example: 4 }) stage_number!: number;
  @ApiProperty({ example: 6 }) stages!: number;
  @ApiProperty({ example: 12, description: 'Items done in this stage (0 of 0 when not counted)' })
  done!: number;
  @ApiProperty({ example: 40 }) total!: number;
  @ApiProperty({ example: 'loading demo data, step 4 of 6: students (12 of 40)' }) message!: string;
}

const DETAILS =
  'Left out for anonymous callers when diagnostics are not public (production mode; docs/decisions/0038)';

export class Health {
  @ApiProperty({
    enum: ['ok', 'starting'],
    description: '`starting` (HTTP 503) while start-up work such as the demo data is still loading',
  })
  status!: 'ok' | 'starting';
  @ApiPropertyOptional({ type: StartingProgressView }) starting?: StartingProgressView;
  @ApiPropertyOptional({ enum: ['embedded', 'server', 'production'], description: DETAILS }) mode?: string;
  @ApiPropertyOptional({ enum: ['pglite', 'postgres', 'eventstoredb'] }) event_store?: string;
  @ApiPropertyOptional({ description: 'Global position of the last event' }) head_position?: string;
  @ApiPropertyOptional({ description: 'Whether this process runs the projections' })
  projection_leader?: boolean;
  @ApiPropertyOptional({ type: [ProjectionHealth] }) projections?: ProjectionHealth[];
}

@ApiTags('health')
@Controller('api/v1/health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly runner: ProjectionRunner,
    private readonly readiness: Readiness,
    private readonly sessions: SessionService,
    @Inject(ACTOR_LOADER) private readonly actors: ActorLoader,
  ) {}

  /**
   * Public (load balancers and container health checks call it). The details (mode, store, positions,
   * leadership) are public unless PUBLIC_DIAGNOSTICS is off (the production default); then only an
   * administrator's session sees them and everyone else gets `{ status: "ok" }`.
   */
  @Get()
  @Public()
  @ApiOkResponse({ type: Health })
  @ApiServiceUnavailableResponse({ type: Health, description: 'Still starting (see `starting`)' })
  async health(@Req() req: AuthenticatedRequest, @Res({ passthrough: true }) res: Response): Promise<Health> {
    const starting = this.readiness.starting;
    if (starting) res.status(503);
    const progress = starting
      ? {
          starting: {
            stage: starting.stage,
            stage_number: starting.stageNumber,
            stages: starting.stages,
            done: starting.done,
            total: starting.total,
            message: this.readiness.describe(),
          },
        }
      : {};
    if (!this.config.publicDiagnostics && !(await this.isAdministrator(req)))
      return { status: starting ? 'starting' : 'ok', ...progress };
    const status = await this.runner.status();
    return {
      status: starting ? 'starting' : 'ok',
      ...progress,
      mode: this.config.mode,
      event_store: this.store.kind,
      head_position: status.head.toString(),
      projection_leader: this.runner.isLeader,
      projections: status.projections.map((p) => ({
        name: p.name,
        version: p.version,
        position: p.position.toString(),
        lag: p.lag.toString(),
        updated_at: p.updatedAt?.toISOString() ?? null,
        serving_version: p.servingVersion,
      })),
    };
  }

  private async isAdministrator(req: AuthenticatedRequest): Promise<boolean> {
    const token = tokenFrom(req);
    if (!token) return false;
    const check = await this.sessions.verify(token);
    if (!check.ok) return false;
    const actor = await this.actors.load(check.session.userId);
    return !!actor?.hasAccess && actor.permissions.includes(MARKER_PERMISSIONS.admin);
  }
}
