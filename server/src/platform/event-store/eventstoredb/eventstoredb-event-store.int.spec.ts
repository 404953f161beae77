import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { runEventStoreContract } from '../event-store.contract.js';
import { EventStoreUnavailableError } from '../errors.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
const SKIP_REASON =
  'eventstoredb: skipped because EVENTSTORE_CONNECTION_STRING is not set (no EventStoreDB server on this machine)';

if (connectionString) {
  let store: EventStoreDbEventStore | null = null;
  runEventStoreContract({
    name: 'eventstoredb',
    // Each test uses fresh random stream names, so a shared server needs no cleanup.
    open: async () => {
      store = await EventStoreDbEventStore.connect(connectionString);
      return store;
    },
    teardown: async () => {
      await store?.close();
    },
  });
} else {
  console.warn(SKIP_REASON);
  describe('EventStore contract: eventstoredb', () => {
    it.skip(SKIP_REASON, () => {});
  });
}

describe('EventStoreDbEventStore without a reachable server', () => {
  it('fails an append within seconds with EventStoreUnavailableError naming EVENTSTORE_CONNECTION_STRING', async () => {
    // Port 1 is closed: the gRPC channel is refused at once.
    const store = EventStoreDbEventStore.fromConnectionString('esdb://127.0.0.1:1?tls=false', {
      deadlineMs: 2000,
    });
    const started = Date.now();
    try {
      const append = store.append(
        `unreachable-${randomUUID()}`,
        [{ id: randomUUID(), type: 'T', data: {} }],
        {
          expectedRevision: 'no_stream',
        },
      );
      await expect(append).rejects.toBeInstanceOf(EventStoreUnavailableError);
      await expect(append).rejects.toThrow(/EVENTSTORE_CONNECTION_STRING/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await store.close();
    }
  });
});
