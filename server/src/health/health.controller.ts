import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../platform/auth/public.decorator.js';
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

export class Health {
  @ApiProperty({ example: 'ok' }) status!: 'ok';
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
  ) {}

  @Get()
  @Public()
  @ApiOkResponse({ type: Health })
  async health(): Promise<Health> {
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
}
