import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { allProjections } from '@portal/projections';
import type { AppConfig } from './config/config.js';
import type { Infrastructure } from './infrastructure.js';
import type { Log } from './logging/logger.js';
import { ProjectionRunner } from './projections/projection-runner.js';
import { DOCUMENT_SNAPSHOT_TAKEN, DOCUMENT_UPDATED } from './collaboration/collab.protocol.js';
import { SessionService } from './auth/session.service.js';
import { MailOutbox } from './mail/mail-outbox.js';
import { Commands } from './event-store/commands.js';
import { MinPositionInterceptor } from './http/min-position.interceptor.js';
import { Readiness } from './http/readiness.js';
import { APP_CONFIG, EVENT_STORE, LOGGER, SQL_CLIENT } from './tokens.js';
import { PersonalDataVault } from './personal-data/personal-data-vault.js';
import { StorageService } from './storage/storage.service.js';
import { RateLimits } from './rate-limit/rate-limits.js';

const INFRASTRUCTURE = Symbol('INFRASTRUCTURE');

export interface PlatformContext {
  config: AppConfig;
  infra: Infrastructure;
  log: Log;
}

/** Cross-cutting resources every domain module may inject. */
@Global()
@Module({})
export class PlatformModule implements OnApplicationShutdown {
  /** This app's own infrastructure: two apps in one process (tests, benchmarks) each close theirs. */
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  static forRoot(context: PlatformContext): DynamicModule {
    const runner = new ProjectionRunner(context.infra.eventStore, context.infra.sql, allProjections, {
      log: context.log.child({ component: 'projections' }),
      // A co-edited document's Yjs bytes: only its own stream's readers decode them (decision 0080).
      payloadFreeEventTypes: [DOCUMENT_UPDATED, DOCUMENT_SNAPSHOT_TAKEN],
    });
    const providers = [
      { provide: APP_CONFIG, useValue: context.config },
      { provide: INFRASTRUCTURE, useValue: context.infra },
      { provide: SQL_CLIENT, useValue: context.infra.sql },
      { provide: EVENT_STORE, useValue: context.infra.eventStore },
      { provide: LOGGER, useValue: context.log },
      { provide: PersonalDataVault, useValue: context.infra.vault },
      { provide: ProjectionRunner, useValue: runner },
      SessionService,
      Commands,
      MinPositionInterceptor,
      Readiness,
      MailOutbox,
      StorageService,
      RateLimits,
    ];
    return {
      module: PlatformModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.infra.close();
  }
}
