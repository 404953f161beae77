import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { RecordedEvent } from '../event-store/event-store.js';
import type { Log } from '../logging/logger.js';
import { LOGGER } from '../tokens.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { LiveServer } from './live-server.js';
import { LiveSessions } from './live-sessions.js';
import { RoomPolicy } from './room-policy.js';
import { liveMessage } from './replay.js';

/**
 * After the projection runner commits a batch (in the leading process only), emits `live` for each
 * event to the rooms the `RoomPolicy` allows, each room with only its own view of the event. A socket in
 * several of an event's rooms gets the event once (the first delivery's view). Then lets `LiveSessions`
 * react to blocks and permission changes.
 */
@Injectable()
export class LivePublisher implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;
  private readonly log: Log;

  constructor(
    private readonly runner: ProjectionRunner,
    private readonly server: LiveServer,
    private readonly policy: RoomPolicy,
    private readonly sessions: LiveSessions,
    @Inject(LOGGER) log: Log,
  ) {
    this.log = log.child({ component: 'live' });
  }

  onModuleInit(): void {
    this.unsubscribe = this.runner.onApplied((events) => this.publish(events));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  publish(events: readonly RecordedEvent[]): void {
    const nsp = this.server.namespace;
    if (!nsp) return;
    for (const event of events) {
      try {
        const sent: string[] = [];
        for (const delivery of this.policy.audience(event)) {
          const target = sent.length ? nsp.to(delivery.room).except(sent) : nsp.to(delivery.room);
          target.emit('live', liveMessage(event, delivery.data));
          sent.push(delivery.room);
        }
      } catch (e) {
        this.log.error(
          { err: e, position: event.position.toString(), type: event.type },
          'could not publish a live update',
        );
      }
    }
    this.sessions.handle(events);
  }
}
