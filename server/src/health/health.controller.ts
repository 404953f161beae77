import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../platform/auth/public.decorator.js';
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

export class Health {
  @ApiProperty({
    enum: ['ok', 'starting'],
    description: '`starting` (HTTP 503) while start-up work such as the demo data is still loading',
  })
  status!: 'ok' | 'starting';
  @ApiProperty({ type: StartingProgressView, required: false }) starting?: StartingProgressView;
  @ApiProperty({ enum: ['embedded', 'server', 'production'] }) mode!: string;
  @ApiProperty({ enum: ['pglite', 'postgres', 'eventstoredb'] }) event_store!: string;
  @ApiProperty({ description: 'Global position of the last event' }) head_position!: string;
  @ApiProperty({ description: 'Whether this process runs the projections' }) projection_leader!: boolean;
  @ApiProperty({ type: [ProjectionHealth] }) projections!: ProjectionHealth[];
}

@ApiTags('health')
@Controller('api/v1/health')
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly runner: ProjectionRunner,
    private readonly readiness: Readiness,
  ) {}

  @Get()
  @Public()
  @ApiOkResponse({ type: Health })
  @ApiServiceUnavailableResponse({ type: Health, description: 'Still starting (see `starting`)' })
  async health(@Res({ passthrough: true }) res: Response): Promise<Health> {
    const status = await this.runner.status();
    const starting = this.readiness.starting;
    if (starting) res.status(503);
    return {
      status: starting ? 'starting' : 'ok',
      ...(starting
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
        : {}),
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
}
