import { defineProjection, type Projection, type ProjectionEvent } from '@portal/projections';

/**
 * Test projection: counts how often each event was applied (a double application shows as 2) and
 * keeps a per-stream running total that depends on order.
 */
export function counterProjection(version = 1, name = 'test_counter'): Projection {
  return defineProjection({
    name,
    version,
    tables: [`${name}_applied`, `${name}_totals`],
    schema: [
      `CREATE TABLE IF NOT EXISTS ${name}_applied (event_id uuid PRIMARY KEY, position bigint NOT NULL, times int NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${name}_totals (stream text PRIMARY KEY, total bigint NOT NULL, history text NOT NULL, version int NOT NULL)`,
    ],
    handles: ['Counted', 'Poison'],
    async apply(event: ProjectionEvent, tx) {
      if (event.type === 'Poison') throw new Error('this event cannot be applied');
      const n = (event.data as { n: number }).n;
      await tx.query(
        `INSERT INTO ${name}_applied (event_id, position, times) VALUES ($1, $2::bigint, 1)
         ON CONFLICT (event_id) DO UPDATE SET times = ${name}_applied.times + 1`,
        [event.id, event.position.toString()],
      );
      await tx.query(
        `INSERT INTO ${name}_totals (stream, total, history, version) VALUES ($1, $2::bigint, $3, $4::int)
         ON CONFLICT (stream) DO UPDATE SET total = ${name}_totals.total + EXCLUDED.total,
           history = ${name}_totals.history || ',' || EXCLUDED.history`,
        [event.stream, n, String(n), version],
      );
    },
  });
}
