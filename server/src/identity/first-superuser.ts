import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { UserCreatedData } from '@portal/projections';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { APP_CONFIG } from '../platform/tokens.js';
import type { AppConfig } from '../platform/config/config.js';
import { PORTAL_NAMESPACE, uuidV5 } from '../platform/uuid.js';
import { Credentials } from './credentials.js';
import { MARKER_PERMISSIONS, userStream } from './user.events.js';

export type FirstSuperuserOutcome = {
  created: boolean;
  userId: string;
  email: string;
  position: bigint | null;
};

/**
 * On the first start of an empty store, creates the first administrator from FIRST_SUPERUSER /
 * FIRST_SUPERUSER_PASSWORD as events. The user id is derived from the e-mail, and the append expects
 * `no_stream`, so several processes starting together create it once.
 */
@Injectable()
export class FirstSuperuser {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: Credentials,
  ) {}

  async ensure(): Promise<FirstSuperuserOutcome> {
    const { email, password } = this.config.firstSuperuser;
    const userId = uuidV5(`user:${email}`, PORTAL_NAMESPACE);
    const stream = userStream(userId);
    const existing = await this.store.readStream(stream, { maxCount: 1 });
    if (existing.length > 0) return { created: false, userId, email, position: null };
    const data: UserCreatedData = {
      userId,
      login: email,
      email,
      firstName: 'Portal',
      lastName: 'Administrator',
      userType: 'super_admin',
      permissions: [MARKER_PERMISSIONS.admin],
    };
    await this.credentials.setPassword(userId, password);
    try {
      const result = await this.store.append(
        stream,
        [
          {
            id: uuidV5(`first-superuser:${email}`, PORTAL_NAMESPACE),
            type: 'UserCreated',
            data,
            metadata: { actorId: null, correlationId: randomUUID() },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      return { created: true, userId, email, position: result.position };
    } catch (e) {
      if (e instanceof ConcurrencyError) return { created: false, userId, email, position: null };
      throw e;
    }
  }
}
