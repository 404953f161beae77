import type { SqlClient } from '../sql/sql-client.js';
import { CHECKPOINT_CHANNEL } from './checkpoints.js';

const POLL_MS = 200;

/**
 * Knows how far the projections have got (the lowest checkpoint), in any process: the leader tells it
 * directly, other processes hear the checkpoint NOTIFY and also poll while someone is waiting. In the
 * leading process the NOTIFY is its own and says nothing it was not told already, so it is not followed
 * by a query there (`toldDirectly`): on PGlite that query took the one thread after every batch.
 */
export class CheckpointWatcher {
  private known = -1n;
  private readonly waiters = new Set<{ target: bigint; resolve: (ok: boolean) => void }>();
  private unlisten: (() => Promise<void>) | null = null;
  private poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly sql: SqlClient,
    private readonly projections: readonly { name: string; version: number }[],
    /** True while this process applies the batches itself and calls `advance` after each. */
    private readonly toldDirectly: () => boolean = () => false,
  ) {}

  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.sql.listen(CHECKPOINT_CHANNEL, () => {
      if (!this.toldDirectly()) void this.refresh().catch(() => {});
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
    this.stopPolling();
  }

  get position(): bigint {
    return this.known;
  }

  advance(position: bigint): void {
    if (position <= this.known) return;
    this.known = position;
    for (const w of this.waiters) {
      if (w.target <= position) {
        this.waiters.delete(w);
        w.resolve(true);
      }
    }
    if (this.waiters.size === 0) this.stopPolling();
  }

  async refresh(): Promise<bigint> {
    if (this.projections.length === 0) return this.known;
    // Only checkpoints of the versions this process runs count: a projection being rebuilt has not
    // reached anything yet.
    const { rows } = await this.sql.query<{ p: string | null; n: string }>(
      `SELECT min(position)::text AS p, count(*)::text AS n FROM proj_checkpoints
        WHERE ${this.projections.map((_, i) => `(name = $${2 * i + 1} AND version = $${2 * i + 2}::int)`).join(' OR ')}`,
      this.projections.flatMap((p) => [p.name, p.version]),
    );
    const row = rows[0];
    if (row?.p != null && Number(row.n) === this.projections.length) this.advance(BigInt(row.p));
    return this.known;
  }

  async waitFor(target: bigint, timeoutMs: number): Promise<boolean> {
    if (this.known >= target) return true;
    await this.refresh().catch(() => {});
    if (this.known >= target) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        target,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
      this.startPolling();
    });
  }

  private startPolling(): void {
    if (this.poller) return;
    this.poller = setInterval(() => void this.refresh().catch(() => {}), POLL_MS);
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }
}
