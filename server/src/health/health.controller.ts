import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
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

export class ProjectionHealth {
  @ApiProperty() name!: string;
  @ApiProperty() version!: number;
  @ApiProperty({ description: 'Last applied global position' }) position!: string;
  @ApiProperty({ description: 'Events behind the head of $all' }) lag!: string;
  @ApiProperty({ nullable: true, type: String }) updated_at!: string | null;
}

const DETAILS =
  'Left out for anonymous callers when diagnostics are not public (production mode; docs/decisions/0038)';

export class Health {
  @ApiProperty({ example: 'ok' }) status!: 'ok';
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
  async health(@Req() req: AuthenticatedRequest): Promise<Health> {
    if (!this.config.publicDiagnostics && !(await this.isAdministrator(req))) return { status: 'ok' };
    const status = await this.runner.status();
    return {
      status: 'ok',
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
