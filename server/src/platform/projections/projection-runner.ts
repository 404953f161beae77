import { QUERY_INDEX_MARK, readsPersonalData, type Projection } from '@portal/projections';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.js';
import type { SqlClient, SqlExecutor, SqlSession } from '../sql/sql-client.js';
import type { Log } from '../logging/logger.js';
import {
  BUILD_SCHEMA,
  buildSchemaOf,
  CHECKPOINT_CHANNEL,
  CHECKPOINT_SCHEMA,
  DEAD_LETTER_SCHEMA,
  LEADER_LOCK_KEY,
  REBUILD_CHANNEL,
  readBuilds,
  readCheckpoints,
} from './checkpoints.js';
import { CheckpointWatcher } from './checkpoint-watcher.js';
import { WriteBehindTx } from './write-behind.js';
import { PreparedStatements } from './prepared-statements.js';

/** Events applied per transaction unless told otherwise (larger pages rebuild faster on PostgreSQL). */
export const DEFAULT_BATCH_SIZE = 1000;

export interface ProjectionRunnerOptions {
  log: Log;
  /** Events applied per transaction (DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** How often a standby tries to take over leadership. */
  standbyRetryMs?: number;
  /** Event types that exist but no projection handles (skipped silently; other unknown types are logged). */
  knownEventTypes?: Iterable<string>;
  /**
   * Event types whose payload neither a projection nor an `onApplied` listener reads (decision 0080):
   * the runner reads them without `data` (their bytes can be large, e.g. a co-edited document's
   * updates and snapshots). A type some projection handles is read in full all the same. They count
   * as known types.
   */
  payloadFreeEventTypes?: Iterable<string>;
}

/** Told about the events of each committed batch (see `ProjectionRunner.onApplied`). */
export type AppliedListener = (events: readonly RecordedEvent[]) => void;

export interface ProjectionStatus {
  name: string;
  version: number;
  position: bigint;
  lag: bigint;
  updatedAt: Date | null;
  /**
   * While this version is built beside the live tables (decision 0065): the version whose tables
   * answer reads meanwhile; `position` and `lag` are then the build's progress.
   */
  servingVersion: number | null;
}

export interface RebuildResult {
  events: number;
  position: bigint;
  ms: number;
}

/** A page read ahead (`ProjectionRunner.earlyRead`), and what was asked for it. */
interface EarlyRead {
  ask: string;
  page: Promise<RecordedEvent[]>;
}

/** What a read of $all asks for, as one comparable string. */
function readAsk(fromPosition: bigint, types: readonly string[] | undefined, sealed: boolean): string {
  return JSON.stringify([fromPosition.toString(), types ?? null, sealed]);
}

/**
 * Feeds every projection from the event store. Batches of events are applied in one transaction
 * together with the checkpoint, so an event is applied exactly once even across crashes. With several
 * processes, the holder of a session-level advisory lock leads; the others stand by and retry.
 */
export class ProjectionRunner {
  readonly watcher: CheckpointWatcher;
  private readonly batchSize: number;
  private readonly standbyRetryMs: number;
  private readonly byType = new Map<string, Projection[]>();
  private readonly known: Set<string>;
  /**
   * The live loop's checkpoints while this process leads: on an embedded store they may be ahead of
   * the stored ones by events nothing applies (decision 0081), and `status` reports them.
   */
  private liveCheckpoints: Map<string, bigint> | null = null;
  /** Types the runner reads without their payload (`payloadFreeEventTypes`, none a projection handles). */
  private readonly payloadFree: string[];
  private stopped = false;
  private leading = false;
  private loop: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private wakeStandby: (() => void) | null = null;
  private stopRebuildListener: (() => Promise<void>) | null = null;
  private readonly appliedListeners = new Set<AppliedListener>();
  /** Index builds left until the projections being rebuilt have caught up (see `prepare`). */
  private deferredIndexes: { ddl: string; schema: string | null }[] = [];
  /** Projections whose new version is being built beside the live tables: name → build schema. */
  private readonly building = new Map<string, string>();
  /** The statements prepared on each session the runner applies events on (decision 0074). */
  private readonly preparedOn = new WeakMap<SqlSession, PreparedStatements>();
  /** Highest position already announced to `onApplied` listeners (or committed before this process led). */
  private announcedUpTo = 0n;
  /** The tail of the batches applied so far: the live loop and the build loop take turns (`exclusive`). */
  private applying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly sql: SqlClient,
    readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions,
  ) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.standbyRetryMs = options.standbyRetryMs ?? 2000;
    for (const p of projections) {
      for (const type of p.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), p]);
    }
    this.payloadFree = [...(options.payloadFreeEventTypes ?? [])].filter((t) => !this.byType.has(t));
    this.known = new Set([...this.byType.keys(), ...(options.knownEventTypes ?? []), ...this.payloadFree]);
    this.watcher = new CheckpointWatcher(
      sql,
      projections.map((p) => ({ name: p.name, version: p.version })),
      () => this.leading,
    );
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Creates the runner's own tables. Safe to call from several processes at once. */
  async ensureSchema(): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${LEADER_LOCK_KEY + 1})`);
      await tx.query(CHECKPOINT_SCHEMA);
      await tx.query(DEAD_LETTER_SCHEMA);
      await tx.query(BUILD_SCHEMA);
    });
  }

  async start(): Promise<void> {
    await this.ensureSchema();
    await this.watcher.start();
    this.stopRebuildListener = await this.sql.listen(REBUILD_CHANNEL, () => {
      this.options.log.info('rebuild requested: restarting projection runner');
      void this.subscription?.close();
    });
    this.stopped = false;
    this.loop = this.leaderLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    this.wakeStandby?.();
    await this.loop;
    await this.stopRebuildListener?.();
    await this.watcher.stop();
  }

  /**
   * Calls `listener` after each batch the projections have COMMITTED, with the batch's events in
   * position order. Only the leading process applies batches, so only it calls listeners. Events at or
   * below a checkpoint that existed when this process started leading (a rebuild, a takeover) are not
   * announced again. A listener must not throw (errors are logged). Returns an unsubscribe function.
   */
  onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Waits (bounded) until every projection has applied `position`. */
  waitForPosition(position: bigint, timeoutMs: number): Promise<boolean> {
    return this.watcher.waitFor(position, timeoutMs);
  }

  async status(): Promise<{ head: bigint; projections: ProjectionStatus[] }> {
    const [head, checkpoints, builds] = await Promise.all([
      this.store.headPosition(),
      readCheckpoints(this.sql),
      readBuilds(this.sql),
    ]);
    const byName = new Map(checkpoints.map((c) => [c.name, c]));
    const buildOf = new Map(builds.map((b) => [b.name, b]));
    return {
      head,
      projections: this.projections.map((p) => {
        const c = byName.get(p.name);
        const build = buildOf.get(p.name);
        const beside = build?.version === p.version && c !== undefined && c.version !== p.version;
        let position = beside ? build.position : c && c.version === p.version ? c.position : 0n;
        const inMemory =
          beside || !c || c.version !== p.version ? undefined : this.liveCheckpoints?.get(p.name);
        if (inMemory !== undefined && inMemory > position) position = inMemory;
        return {
          name: p.name,
          version: p.version,
          position,
          lag: head > position ? head - position : 0n,
          updatedAt: c?.updatedAt ?? null,
          servingVersion: beside ? c.version : null,
        };
      }),
    };
  }

  /**
   * Rebuilds the named projections (all by default) from the first event, here and now, then returns.
   * Needs leadership: when another process leads, it asks that leader to rebuild instead and waits.
   */
  async rebuild(names?: string[]): Promise<RebuildResult> {
    const started = Date.now();
    const targets = this.projections.filter((p) => !names || names.includes(p.name));
    if (names) {
      const unknown = names.filter((n) => !this.projections.some((p) => p.name === n));
      if (unknown.length) throw new Error(`Unknown projection(s): ${unknown.join(', ')}`);
    }
    // The first page is read while the session opens, the lock is taken and the tables are made
    // (decision 0091): on PostgreSQL those are tens of milliseconds a small projection's rebuild
    // otherwise waits for, on another connection than the read. The head is taken first, so a short
    // first page still ends the catch-up (see `catchUp`).
    const head = await this.store.headPosition();
    const early = this.earlyRead(
      targets.map((p) => p.name),
      head,
    );
    await this.ensureSchema();
    await this.sql.query(
      `UPDATE proj_checkpoints SET version = -1 WHERE name IN (${targets.map((_, i) => `$${i + 1}`).join(', ')})`,
      targets.map((p) => p.name),
    );
    const session = await this.sql.session();
    try {
      const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        LEADER_LOCK_KEY,
      ]);
      if (!rows[0]?.ok) {
        await this.sql.query('SELECT pg_notify($1, $2)', [REBUILD_CHANNEL, 'all']);
        const head = await this.store.headPosition();
        await this.watcher.start();
        const ok = await this.watcher.waitFor(head, 10 * 60_000);
        await this.watcher.stop();
        if (!ok) throw new Error('The leading server did not finish the rebuild within 10 minutes');
        return { events: -1, position: head, ms: Date.now() - started };
      }
      try {
        // Named projections only: the others' schemas are left alone (decision 0090).
        const checkpoints = await this.prepare(session, { restoreSchemas: !names });
        const events = await this.catchUp(session, checkpoints, head, { early });
        await this.buildDeferredIndexes(session, 'all');
        await this.swapInBuilds(session, checkpoints);
        return { events, position: head, ms: Date.now() - started };
      } finally {
        await session.query('SELECT pg_advisory_unlock($1)', [LEADER_LOCK_KEY]).catch(() => {});
      }
    } finally {
      await this.release(session);
    }
  }

  private async leaderLoop(): Promise<void> {
    const log = this.options.log;
    while (!this.stopped) {
      let session: SqlSession | null = null;
      try {
        session = await this.sql.session();
        const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          LEADER_LOCK_KEY,
        ]);
        if (rows[0]?.ok) {
          this.leading = true;
          log.info('projection runner is the leader');
          const lost = session.lost.then((e) => {
            throw e;
          });
          await Promise.race([this.lead(session), lost]);
        }
      } catch (e) {
        if (!this.stopped)
          log.error({ err: e }, 'projection runner stopped leading after an error; retrying');
      } finally {
        if (this.leading) {
          this.leading = false;
          await this.subscription?.close();
          await session?.query('SELECT pg_advisory_unlock($1)', [LEADER_LOCK_KEY]).catch(() => {});
        }
        if (session) await this.release(session);
      }
      if (!this.stopped) await this.pause(this.standbyRetryMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeStandby = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeStandby = done;
    });
  }

  /**
   * Leads until stopped: catches up from the lowest checkpoint, then follows live appends. Projections
   * being built beside their live tables (decision 0065) catch up in a loop of their own
   * (`buildBeside`), so the others keep following live appends while a long build runs.
   */
  private async lead(session: SqlSession): Promise<void> {
    const all = await this.prepare(session);
    const live = new Map([...all].filter(([name]) => !this.building.has(name)));
    const builds = new Map([...all].filter(([name]) => this.building.has(name)));
    const head = await this.store.headPosition();
    if (live.size > 0) await this.catchUp(session, live, head);
    if (this.stopped) return;
    await this.buildDeferredIndexes(session, null);
    // With every projection being built, the live loop only waits for the builds to join it.
    this.liveCheckpoints = live;
    const sub = this.store.subscribeToAll({
      fromPosition: live.size > 0 ? min(live.values()) : head,
      withoutData: this.payloadFree,
    });
    this.subscription = sub;
    // `stop()` closes the subscription it finds: one made after it was called must close itself.
    if (this.stopped) {
      await sub.close();
      return;
    }
    const build: { failure?: Error } = {};
    let followed = false;
    const building =
      builds.size === 0
        ? Promise.resolve()
        : this.buildBeside(builds, live, () => this.stopped || followed).catch(async (e: unknown) => {
            // Stop following too: the leader loop starts over, and `prepare` resumes the build.
            build.failure = e instanceof Error ? e : new Error(String(e));
            await sub.close();
          });
    try {
      for await (const batch of batches(sub, this.batchSize)) {
        if (this.stopped) break;
        await this.exclusive(() => this.applyBatch(session, batch, live));
      }
    } finally {
      followed = true;
      await building;
      this.liveCheckpoints = null;
    }
    if (build.failure) throw build.failure;
  }

  /**
   * The build loop: applies the log to the projections built beside (their checkpoints in `builds`) on
   * a session of its own, taking turns with the live loop batch by batch. Near the head it takes the
   * live loop's turn for good: catches up to the head, builds the deferred indexes, swaps the new
   * tables in, and hands the projections to the live loop (`live`) at the position they reached, which
   * is at or past everything the live loop has applied.
   */
  private async buildBeside(
    builds: Map<string, bigint>,
    live: Map<string, bigint>,
    halted: () => boolean,
  ): Promise<void> {
    const session = await this.sql.session();
    try {
      for (;;) {
        if (halted()) return;
        const head = await this.store.headPosition();
        if (head - min(builds.values()) <= BigInt(this.batchSize)) break;
        await this.catchUp(session, builds, head, { role: 'build', takeTurns: true, halted });
      }
      await this.exclusive(async () => {
        const head = await this.store.headPosition();
        await this.catchUp(session, builds, head, { role: 'build', halted });
        if (halted() || min(builds.values()) < head) return;
        await this.buildDeferredIndexes(session, 'builds');
        await this.swapInBuilds(session, builds);
        for (const [name, position] of builds) live.set(name, position);
      });
    } finally {
      await this.release(session);
    }
  }

  /** The statements prepared on `session`. */
  private prepared(session: SqlSession): PreparedStatements {
    let prepared = this.preparedOn.get(session);
    if (!prepared) this.preparedOn.set(session, (prepared = new PreparedStatements()));
    return prepared;
  }

  /** Gives a session back, first freeing what was prepared on it (its connection may serve others). */
  private async release(session: SqlSession): Promise<void> {
    await this.preparedOn.get(session)?.deallocate(session);
    this.preparedOn.delete(session);
    await session.release();
  }

  /** Runs `fn` once the batch being applied (by either loop) has committed; the next one waits for it. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.applying.then(fn, fn);
    this.applying = run.catch(() => {});
    return run;
  }

  /**
   * Creates tables. A projection seen for the first time, or asked to rebuild (`rebuild()`), is built
   * in place from the first event. One whose version changed is built beside its live tables
   * (decision 0065): in its own schema, from the first event (or from where an interrupted build got
   * to), while the old tables keep answering reads; `swapInBuilds` puts it in their place once it has
   * caught up.
   */
  private async prepare(
    session: SqlSession,
    { restoreSchemas = true }: { restoreSchemas?: boolean } = {},
  ): Promise<Map<string, bigint>> {
    return session.transaction(async (tx) => {
      const existing = new Map((await readCheckpoints(tx)).map((c) => [c.name, c]));
      const builds = new Map((await readBuilds(tx)).map((b) => [b.name, b]));
      const positions = new Map<string, bigint>();
      const again: string[] = [];
      this.building.clear();
      this.deferredIndexes = [];
      for (const p of this.projections) {
        const current = existing.get(p.name);
        const build = builds.get(p.name);
        if (current && current.version >= 0 && current.version !== p.version) {
          const schema = buildSchemaOf(p.name);
          const resume = build?.version === p.version;
          this.options.log.info(
            { projection: p.name, version: p.version, serving: current.version, resume },
            'building the new version beside the live tables',
          );
          if (!resume) {
            await tx.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
            await tx.query(`CREATE SCHEMA ${schema}`);
          }
          await tx.query(`SET LOCAL search_path TO ${schema}, public`);
          for (const ddl of p.schema) {
            if (!resume && builtAfterCatchUp(ddl)) this.deferredIndexes.push({ ddl, schema });
            else await tx.query(ddl);
          }
          await tx.query('SET LOCAL search_path TO DEFAULT');
          if (!resume) {
            await tx.query(
              `INSERT INTO proj_builds (name, version, position) VALUES ($1, $2::int, 0)
               ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = 0,
                 started_at = clock_timestamp(), updated_at = clock_timestamp()`,
              [p.name, p.version],
            );
            await tx.query('DELETE FROM proj_dead_letters WHERE projection = $1', [p.name]);
          }
          this.building.set(p.name, schema);
          positions.set(p.name, resume ? build.position : 0n);
          continue;
        }
        if (build) {
          // A build left over by a version no longer run (a rollback, or an explicit rebuild).
          await tx.query(`DROP SCHEMA IF EXISTS ${buildSchemaOf(p.name)} CASCADE`);
          await tx.query('DELETE FROM proj_builds WHERE name = $1', [p.name]);
        }
        if (!current || current.version !== p.version) {
          this.options.log.info(
            { projection: p.name, version: p.version, previous: current?.version ?? null },
            'building projection from the first event',
          );
          for (const table of p.tables) await tx.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
          for (const ddl of p.schema) {
            if (builtAfterCatchUp(ddl)) this.deferredIndexes.push({ ddl, schema: null });
            else await tx.query(ddl);
          }
          await tx.query(
            `INSERT INTO proj_checkpoints (name, version, position) VALUES ($1, $2::int, 0)
             ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = 0, updated_at = clock_timestamp()`,
            [p.name, p.version],
          );
          await tx.query('DELETE FROM proj_dead_letters WHERE projection = $1', [p.name]);
          positions.set(p.name, 0n);
        } else {
          again.push(...p.schema);
          positions.set(p.name, current.position);
        }
      }
      // The schema of the projections at their version runs again (IF NOT EXISTS: an index added
      // without a version bump, or deferred by a rebuild that crashed), as one script: one round trip
      // instead of one per statement (about 100 statements; decision 0088). Not for an explicit rebuild
      // of named projections: the others' tables are not touched by it, and leading (every start) runs
      // their schemas again anyway (decision 0090).
      if (again.length > 0 && restoreSchemas) await tx.script(again.join('\n;\n'));
      for (const c of existing.values()) if (c.position > this.announcedUpTo) this.announcedUpTo = c.position;
      return positions;
    });
  }

  /**
   * Puts each projection built beside its live tables in their place, in one transaction: the old
   * tables are dropped, the new ones moved into the public schema, and the checkpoint takes the new
   * version at the build's position. Reads answered from the old tables until this commit.
   */
  private async swapInBuilds(session: SqlSession, checkpoints: Map<string, bigint>): Promise<void> {
    if (this.building.size === 0 || this.stopped) return;
    await session.transaction(async (tx) => {
      for (const [name, schema] of this.building) {
        const p = this.projections.find((x) => x.name === name)!;
        const position = checkpoints.get(name) ?? 0n;
        for (const table of p.tables) {
          await tx.query(`DROP TABLE IF EXISTS public.${table} CASCADE`);
          await tx.query(`ALTER TABLE ${schema}.${table} SET SCHEMA public`);
        }
        await tx.query(
          `UPDATE proj_checkpoints SET version = $2::int, position = $3::bigint, updated_at = clock_timestamp()
            WHERE name = $1`,
          [name, p.version, position.toString()],
        );
        await tx.query('DELETE FROM proj_builds WHERE name = $1', [name]);
        await tx.query(`DROP SCHEMA ${schema} CASCADE`);
        this.options.log.info({ projection: name, version: p.version }, 'new projection version swapped in');
      }
      await tx.query('SELECT pg_notify($1, $2)', [CHECKPOINT_CHANNEL, min(checkpoints.values()).toString()]);
    });
    this.building.clear();
  }

  /**
   * Builds the indexes `prepare` left out of a rebuild, now that the tables are full: one bulk build
   * instead of one index update per row (a GIN index costs as much as the rest of the row). A crash
   * before this point loses nothing: the next start runs every schema statement again (IF NOT EXISTS).
   */
  private async buildDeferredIndexes(session: SqlSession, which: 'all' | 'builds' | null): Promise<void> {
    const started = Date.now();
    // `null`: those of projections rebuilt in place; 'builds': those of the build schemas.
    const mine = (schema: string | null) => which === 'all' || (which === 'builds') === (schema !== null);
    const now = this.deferredIndexes.filter((d) => mine(d.schema));
    this.deferredIndexes = this.deferredIndexes.filter((d) => !mine(d.schema));
    for (const { ddl, schema } of now) {
      if (!schema) await session.query(ddl);
      else
        await session.transaction(async (tx) => {
          await tx.query(`SET LOCAL search_path TO ${schema}, public`);
          await tx.query(ddl);
        });
    }
    if (Date.now() - started > 1000)
      this.options.log.info({ ms: Date.now() - started }, 'built the indexes deferred by the rebuild');
  }

  /**
   * The read a rebuild of `names` from the first event up to `until` will most likely start with,
   * started now (see `rebuild`): all others caught up, and `until` announced already. `catchUp` takes
   * it only where its own first read asks for exactly the same, else it is left unused.
   */
  private earlyRead(names: readonly string[], until: bigint): EarlyRead | undefined {
    if (until <= 0n) return undefined;
    const { types, personal } = this.readScope(names);
    return { ask: readAsk(0n, types, !personal), page: this.readPage(0n, types, !personal) };
  }

  /**
   * What a catch-up of the named projections reads: when only some are behind (one rebuilt, or built
   * beside its live tables), only the event types they handle (decision 0073); all of them behind read
   * everything, so that an event of a type no projection knows is still logged. `personal`: one of
   * them reads personal fields, so the log must be read decrypted (decision 0089).
   */
  private readScope(names: readonly string[]): { types: string[] | undefined; personal: boolean } {
    return {
      types: names.length < this.projections.length ? this.typesOf(names) : undefined,
      personal: this.projections.some((p) => names.includes(p.name) && readsPersonalData(p)),
    };
  }

  /** One page of $all as the runner reads it. */
  private readPage(
    fromPosition: bigint,
    types: string[] | undefined,
    sealed: boolean,
  ): Promise<RecordedEvent[]> {
    const page = this.store.readAll({
      fromPosition,
      maxCount: this.batchSize,
      types,
      withoutData: this.payloadFree,
      sealed,
    });
    page.catch(() => {}); // awaited where used; this only keeps an unused read's failure from going unhandled
    return page;
  }

  /** Reads $all in pages from the lowest checkpoint up to `until`, applying each page as one batch. */
  private async catchUp(
    session: SqlSession,
    checkpoints: Map<string, bigint>,
    until: bigint,
    options: { role?: BatchRole; takeTurns?: boolean; halted?: () => boolean; early?: EarlyRead } = {},
  ): Promise<number> {
    const { role = 'live', takeTurns = false, halted = () => this.stopped } = options;
    let early = options.early;
    const behind = [...checkpoints].filter(([, position]) => position < until).map(([name]) => name);
    const { types, personal } = this.readScope(behind);
    // None of them reads a personal field: the log is read without decrypting them (decision 0089).
    // Only where no event read can reach the `onApplied` listeners (which may show personal fields):
    // a build never announces, and no other read announces events up to `announcedUpTo`.
    const sealed = (role === 'build' || until <= this.announcedUpTo) && !personal;
    const read = (fromPosition: bigint) => {
      // A page read before this catch-up began, for exactly this read (see `earlyRead`).
      const taken = early?.ask === readAsk(fromPosition, types, sealed) ? early.page : undefined;
      early = undefined;
      return taken ?? this.readPage(fromPosition, types, sealed);
    };
    let from = min(checkpoints.values());
    let count = 0;
    let next = from < until ? read(from) : null;
    while (next && !halted()) {
      const page = await next;
      if (page.length === 0) break;
      from = page[page.length - 1]!.position;
      // Read the next page while this one is applied (on PostgreSQL, on another connection): the log
      // is append-only, so what a read returns does not depend on the projections' progress. A short
      // page was the end of the log when it was read, after `until` was taken: nothing up to `until`
      // is left to read (positions are gap-safe), so no read is spent learning that (decision 0090).
      next = from < until && page.length >= this.batchSize ? read(from) : null;
      if (takeTurns) await this.exclusive(() => this.applyBatch(session, page, checkpoints, role));
      else await this.applyBatch(session, page, checkpoints, role);
      count += page.length;
    }
    // The events after the last one read, up to `until`, are none of theirs: the checkpoints move
    // there too, so the projections count as caught up (health, read-your-writes) without a new event.
    if (!halted()) {
      if (takeTurns) await this.exclusive(() => this.advanceTo(session, checkpoints, until, role));
      else await this.advanceTo(session, checkpoints, until, role);
    }
    return count;
  }

  /** The event types any of the named projections handles. */
  private typesOf(names: Iterable<string>): string[] {
    const wanted = new Set(names);
    const types = new Set<string>();
    for (const p of this.projections) if (wanted.has(p.name)) for (const t of p.handles) types.add(t);
    return [...types];
  }

  /** Moves the checkpoints below `position` to it, with no event applied (see `catchUp`). */
  private async advanceTo(
    session: SqlSession,
    checkpoints: Map<string, bigint>,
    position: bigint,
    role: BatchRole,
  ): Promise<void> {
    const behind = new Map([...checkpoints].filter(([, p]) => p < position));
    if (behind.size === 0) return;
    await session.transaction((tx) => this.moveCheckpoints(tx, behind, position));
    for (const name of behind.keys()) checkpoints.set(name, position);
    if (role === 'build') return;
    this.advanceReaders(checkpoints);
  }

  /** Wakes the readers waiting for positions the live projections have now passed. */
  private advanceReaders(checkpoints: Map<string, bigint>): void {
    // A projection built beside its live tables does not hold readers back: they read its old tables.
    this.watcher.advance(
      min([...checkpoints].filter(([name]) => !this.building.has(name)).map(([, position]) => position)),
    );
  }

  /**
   * Applies one batch to the projections in `checkpoints` (and only those) in one transaction, and
   * moves their checkpoints. The build loop's batches (`role` 'build') are old events: they neither
   * wake readers nor reach `onApplied` listeners.
   */
  private async applyBatch(
    session: SqlSession,
    batch: readonly RecordedEvent[],
    checkpoints: Map<string, bigint>,
    role: BatchRole = 'live',
  ): Promise<void> {
    const last = batch[batch.length - 1]!.position;
    // Nothing to apply (e.g. a co-edited document's updates) on an embedded store, whose one process
    // is the only reader of the checkpoints: they move in memory only (decision 0081). The next batch
    // that applies something writes them past these events; after a restart they are read again and
    // applied to nothing.
    const inMemoryOnly =
      role === 'live' && this.sql.kind === 'pglite' && !this.appliesAny(batch, checkpoints);
    if (!inMemoryOnly) {
      try {
        await session.transaction((tx) =>
          this.applyEvents(tx, batch, checkpoints, last, false, this.prepared(session)),
        );
      } catch (firstError) {
        // Find the event that fails, record it as a dead letter and apply the rest (one savepoint per event).
        this.options.log.warn(
          { err: firstError, upTo: last.toString() },
          'batch failed; retrying event by event',
        );
        await session.transaction((tx) =>
          this.applyEvents(tx, batch, checkpoints, last, true, this.prepared(session)),
        );
      }
    }
    for (const [name, position] of checkpoints) if (position < last) checkpoints.set(name, last);
    if (role === 'build') return;
    this.advanceReaders(checkpoints);
    this.announce(batch);
  }

  /** Whether some projection in `checkpoints` has an event of `batch` to apply. */
  private appliesAny(batch: readonly RecordedEvent[], checkpoints: Map<string, bigint>): boolean {
    for (const event of batch)
      for (const projection of this.byType.get(event.type) ?? []) {
        const checkpoint = checkpoints.get(projection.name);
        if (checkpoint !== undefined && event.position > checkpoint) return true;
      }
    return false;
  }

  private announce(batch: readonly RecordedEvent[]): void {
    const from = this.announcedUpTo;
    const last = batch[batch.length - 1]!.position;
    if (last <= from) return;
    this.announcedUpTo = last;
    const fresh = batch[0]!.position > from ? batch : batch.filter((e) => e.position > from);
    for (const listener of this.appliedListeners) {
      try {
        listener(fresh);
      } catch (e) {
        this.options.log.error({ err: e, upTo: last.toString() }, 'onApplied listener failed');
      }
    }
  }

  private async applyEvents(
    direct: SqlExecutor,
    batch: readonly RecordedEvent[],
    checkpoints: Map<string, bigint>,
    last: bigint,
    isolate: boolean,
    prepared: PreparedStatements,
  ): Promise<void> {
    // Projections write through a write-behind transaction: their plain writes travel as one script.
    const tx = new WriteBehindTx(direct, prepared);
    // Each projection's events of this batch, in order. A projection only touches its own tables, so
    // applying one projection's events before another's has the same effect as interleaving them.
    const perProjection = new Map<Projection, RecordedEvent[]>();
    for (const event of batch) {
      const targets = this.byType.get(event.type);
      if (!targets) {
        if (!this.known.has(event.type) && !isolate) {
          this.options.log.warn(
            { position: event.position.toString(), type: event.type, stream: event.stream },
            'skipping event of unknown type',
          );
        }
        continue;
      }
      for (const projection of targets) {
        // Only this loop's projections (the live loop and the build loop each pass their own).
        const checkpoint = checkpoints.get(projection.name);
        if (checkpoint === undefined || event.position <= checkpoint) continue;
        if (!isolate) {
          const events = perProjection.get(projection);
          if (events) events.push(event);
          else perProjection.set(projection, [event]);
          continue;
        }
        const schema = this.building.get(projection.name);
        await direct.query('SAVEPOINT projection_event');
        try {
          if (schema) await direct.query(`SET LOCAL search_path TO ${schema}, public`);
          await projection.apply(event, tx);
          await tx.flush();
          if (schema) await direct.query('SET LOCAL search_path TO DEFAULT');
          await direct.query('RELEASE SAVEPOINT projection_event');
        } catch (e) {
          await tx.discard();
          // Also undoes this event's search_path (SET LOCAL is rolled back with the savepoint).
          await direct.query('ROLLBACK TO SAVEPOINT projection_event');
          const message = e instanceof Error ? e.message : String(e);
          this.options.log.error(
            { projection: projection.name, position: event.position.toString(), type: event.type, err: e },
            'projection could not apply event; recorded as a dead letter and skipped',
          );
          await direct.query(
            `INSERT INTO proj_dead_letters (projection, position, event_type, error) VALUES ($1, $2::bigint, $3, $4)
             ON CONFLICT DO NOTHING`,
            [projection.name, event.position.toString(), event.type, message],
          );
        }
      }
    }
    for (const [projection, events] of perProjection) {
      // A projection built beside its live tables writes into its build schema (decision 0065).
      const schema = this.building.get(projection.name);
      if (schema) {
        await tx.flush();
        await direct.query(`SET LOCAL search_path TO ${schema}, public`);
      }
      const applyBatch = batchApplier(projection);
      if (applyBatch) await applyBatch(events, tx);
      else for (const event of events) await projection.apply(event, tx);
      if (schema) {
        await tx.flush();
        await direct.query('SET LOCAL search_path TO DEFAULT');
      }
    }
    await tx.flush();
    await this.moveCheckpoints(direct, checkpoints, last);
  }

  /** Moves the checkpoints (live or build) of `checkpoints` to `last`, and tells the waiting readers. */
  private async moveCheckpoints(
    direct: SqlExecutor,
    checkpoints: Map<string, bigint>,
    last: bigint,
  ): Promise<void> {
    const names = [...checkpoints.keys()].filter((n) => !this.building.has(n));
    const builds = [...checkpoints.keys()].filter((n) => this.building.has(n));
    if (names.length > 0)
      await direct.query(
        `UPDATE proj_checkpoints SET position = $1::bigint, updated_at = clock_timestamp()
          WHERE position < $1::bigint AND name IN (${names.map((_, i) => `$${i + 2}`).join(', ')})`,
        [last.toString(), ...names],
      );
    if (builds.length > 0)
      await direct.query(
        `UPDATE proj_builds SET position = $1::bigint, updated_at = clock_timestamp()
          WHERE position < $1::bigint AND name IN (${builds.map((_, i) => `$${i + 2}`).join(', ')})`,
        [last.toString(), ...builds],
      );
    await direct.query('SELECT pg_notify($1, $2)', [CHECKPOINT_CHANNEL, last.toString()]);
  }
}

/**
 * A projection's optional `applyBatch`, bound to it. Read structurally, so the runner also works with a
 * build of @portal/projections whose Projection type predates `applyBatch` (it then applies per event).
 */
function batchApplier(
  projection: Projection,
): ((events: readonly RecordedEvent[], tx: SqlExecutor) => Promise<void>) | undefined {
  const applyBatch = (
    projection as { applyBatch?: (events: readonly RecordedEvent[], tx: SqlExecutor) => Promise<void> }
  ).applyBatch;
  return applyBatch ? (events, tx) => applyBatch.call(projection, events, tx) : undefined;
}

/**
 * Schema statements a rebuild from the first event runs only once it has caught up: GIN indexes (text
 * search, decision 0063), which no projection reads while it applies events and which cost as much
 * per row as the rest of it, and the indexes a projection marks as used by its queries only
 * (`queryIndex`, decision 0073). Unique indexes never wait: ON CONFLICT needs them.
 */
export function builtAfterCatchUp(ddl: string): boolean {
  return (
    /\bCREATE\s+INDEX\b/i.test(ddl) &&
    (/\bUSING\s+gin\b/i.test(ddl) || ddl.startsWith(QUERY_INDEX_MARK)) &&
    !/\b(UNIQUE|CREATE\s+TABLE)\b/i.test(ddl)
  );
}

/** The live loop's batches, or the build loop's (decision 0065): old events, announced to nobody. */
type BatchRole = 'live' | 'build';

function min(values: Iterable<bigint>): bigint {
  let result: bigint | null = null;
  for (const v of values) if (result === null || v < result) result = v;
  return result ?? 0n;
}

/**
 * Groups a subscription into batches: everything that is already available (resolves before the next
 * macrotask) joins the current batch, up to `max` events.
 */
async function* batches(sub: Subscription, max: number): AsyncGenerator<RecordedEvent[]> {
  const it = sub[Symbol.asyncIterator]();
  const idle = Symbol('idle');
  let pending = it.next();
  while (true) {
    const first = await pending;
    if (first.done) return;
    const batch = [first.value];
    pending = it.next();
    while (batch.length < max) {
      const next = await Promise.race([
        pending,
        new Promise<typeof idle>((r) => setImmediate(() => r(idle))),
      ]);
      if (next === idle) break;
      if (next.done) {
        yield batch;
        return;
      }
      batch.push(next.value);
      pending = it.next();
    }
    yield batch;
  }
}
