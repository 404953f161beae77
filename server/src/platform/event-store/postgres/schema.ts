/**
 * Event store schema, shared by PGlite and PostgreSQL. Appends go through one PL/pgSQL function so an
 * append is a single round trip (es_append_many writes several appends that arrived together in one).
 * Global order is gap-safe: on PostgreSQL the function takes a transaction-level advisory lock before it
 * draws positions, so positions are handed out in commit order and a reader that has seen position P will
 * never later see a smaller one (docs/decisions/0003-gap-safe-positions.md); on PGlite, one connection,
 * appends cannot overlap at all (decision 0069).
 */
export const EVENT_STORE_LOCK_KEY = 7_262_001;
export const APPEND_CHANNEL = 'es_appended';

/**
 * The schema for one kind of database. On PGlite the append lock and the NOTIFY are left out: PGlite is
 * one connection in one process (its data directory is locked), so appends run strictly one after
 * another and their commits are in position order by construction, and the stores of that process hear
 * each other's appends in memory (`PostgresEventStore`). Measured on PGlite they were a fifth of an
 * append's cost (issue 19, decision 0069).
 */
export function eventStoreSchema(kind: 'pglite' | 'postgres'): string {
  const server = kind === 'postgres';
  const lock = server
    ? `PERFORM pg_advisory_xact_lock(${EVENT_STORE_LOCK_KEY});`
    : '-- PGlite: one connection, no lock';
  const notify = server
    ? `PERFORM pg_notify('${APPEND_CHANNEL}', (v_first + v_count - 1)::text);`
    : '-- PGlite: the appending process signals its own stores';
  const notifyOne = server
    ? `PERFORM pg_notify('${APPEND_CHANNEL}', v_pos::text);`
    : '-- PGlite: the appending process signals its own stores';
  return /* sql */ `
CREATE SEQUENCE IF NOT EXISTS es_position_seq;

CREATE TABLE IF NOT EXISTS es_events (
  position   bigint PRIMARY KEY,
  id         uuid NOT NULL UNIQUE,
  stream     text NOT NULL,
  revision   bigint NOT NULL,
  type       text NOT NULL,
  data       jsonb NOT NULL,
  metadata   jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (stream, revision)
);

-- A stream's revision is read from es_events (the (stream, revision) index, newest first); the
-- es_streams table that mirrored it cost a second write per append and is gone (decision 0069).
DROP TABLE IF EXISTS es_streams;

-- One record, not a table: RETURN QUERY filled a tuplestore per call (decision 0069). Changing the
-- result type needs the old (set-returning) function dropped first, once.
DO $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'es_append' AND proretset) THEN
    DROP FUNCTION es_append(text, text, jsonb);
  END IF;
END
$fn$;

-- Whether a stream at revision p_current (NULL: no stream) is what p_expected asks for.
CREATE OR REPLACE FUNCTION es_expected_matches(p_expected text, p_current bigint)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_expected = 'any'
      OR (p_expected = 'no_stream' AND p_current IS NULL)
      OR (p_expected = 'stream_exists' AND p_current IS NOT NULL)
      OR (p_expected ~ '^[0-9]+$' AND p_current IS NOT NULL AND p_current = p_expected::bigint)
$fn$;

-- The usual append, one event, its fields as typed parameters: no JSON array to take apart
-- (issue 19: a fifth of a single append on PGlite went to the array and the function scan).
CREATE OR REPLACE FUNCTION es_append_one(p_stream text, p_expected text, p_id uuid, p_type text,
  p_data jsonb, p_metadata jsonb,
  OUT status text, OUT out_revision bigint, OUT out_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_current bigint;
  v_mine    boolean;
  v_pos     bigint;
  v_rev     bigint;
BEGIN
  ${lock}
  SELECT e.revision INTO v_current FROM es_events e WHERE e.stream = p_stream ORDER BY e.revision DESC LIMIT 1;

  -- An id already stored: an append retried with the same id is answered as it was ('idempotent');
  -- an id stored by another stream is refused ('duplicate_id'). One index lookup.
  SELECT e.stream = p_stream, e.position, e.revision INTO v_mine, v_pos, v_rev
    FROM es_events e WHERE e.id = p_id;
  IF FOUND THEN
    IF v_mine THEN
      status := 'idempotent'; out_revision := v_rev; out_position := v_pos;
    ELSE
      status := 'duplicate_id'; out_revision := coalesce(v_current, -1); out_position := 0;
    END IF;
    RETURN;
  END IF;

  IF NOT es_expected_matches(p_expected, v_current) THEN
    status := 'conflict'; out_revision := coalesce(v_current, -1); out_position := 0;
    RETURN;
  END IF;

  v_pos := nextval('es_position_seq');
  INSERT INTO es_events (position, id, stream, revision, type, data, metadata)
  VALUES (v_pos, p_id, p_stream, coalesce(v_current, -1) + 1, p_type, p_data, p_metadata);
  ${notifyOne}
  status := 'ok';
  out_revision := coalesce(v_current, -1) + 1;
  out_position := v_pos;
END
$fn$;

-- Any number of events as a JSON array (es_append_many's appends); one event goes to es_append_one.
CREATE OR REPLACE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb,
  OUT status text, OUT out_revision bigint, OUT out_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_current bigint;
  v_count   int := jsonb_array_length(p_events);
  v_one     jsonb;
  v_found   int;
  v_stored  int;
  v_pos     bigint;
  v_rev     bigint;
  v_first   bigint;
BEGIN
  IF v_count = 1 THEN
    v_one := p_events->0;
    SELECT o.status, o.out_revision, o.out_position INTO status, out_revision, out_position
      FROM es_append_one(p_stream, p_expected, (v_one->>'id')::uuid, v_one->>'type', v_one->'data',
                         v_one->'metadata') o;
    RETURN;
  END IF;

  ${lock}
  SELECT e.revision INTO v_current FROM es_events e WHERE e.stream = p_stream ORDER BY e.revision DESC LIMIT 1;

  -- Event ids already stored: an append retried with the same ids is answered as it was
  -- ('idempotent'); ids stored by another append are refused ('duplicate_id').
  IF v_count > 1 THEN
    -- One index lookup per event id. The LATERAL ... LIMIT 1 cannot be flattened into a join, which
    -- the planner could plan (and cache for the session) as a scan of the whole of es_events when the
    -- table was small or its statistics stale (PGlite never runs autovacuum).
    SELECT count(DISTINCT m.position) FILTER (WHERE m.stream = p_stream),
           count(m.position),
           max(m.position) FILTER (WHERE m.stream = p_stream),
           max(m.revision) FILTER (WHERE m.stream = p_stream)
      INTO v_found, v_stored, v_pos, v_rev
      FROM jsonb_array_elements(p_events) x
     CROSS JOIN LATERAL (
           SELECT e.stream, e.position, e.revision FROM es_events e WHERE e.id = (x->>'id')::uuid LIMIT 1
         ) m;
    IF v_found = v_count THEN
      status := 'idempotent'; out_revision := v_rev; out_position := v_pos;
      RETURN;
    END IF;
    IF v_stored > 0 THEN
      status := 'duplicate_id'; out_revision := coalesce(v_current, -1); out_position := 0;
      RETURN;
    END IF;
  END IF;

  IF NOT es_expected_matches(p_expected, v_current) THEN
    status := 'conflict'; out_revision := coalesce(v_current, -1); out_position := 0;
    RETURN;
  END IF;

  IF v_count = 0 THEN
    status := 'ok';
    out_revision := coalesce(v_current, -1);
    out_position := coalesce(
      (SELECT e.position FROM es_events e WHERE e.stream = p_stream ORDER BY e.revision DESC LIMIT 1), 0);
    RETURN;
  END IF;

  v_first := nextval('es_position_seq');
  PERFORM setval('es_position_seq', v_first + v_count - 1);
  INSERT INTO es_events (position, id, stream, revision, type, data, metadata)
  SELECT v_first + x.ord - 1,
         (x.e->>'id')::uuid,
         p_stream,
         coalesce(v_current, -1) + x.ord,
         x.e->>'type',
         x.e->'data',
         x.e->'metadata'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(e, ord);

  ${notify}
  status := 'ok';
  out_revision := coalesce(v_current, -1) + v_count;
  out_position := v_first + v_count - 1;
END
$fn$;

-- Several independent appends in one transaction (group commit): each is checked and written exactly as
-- es_append would, in array order, and gets its own result row (ord = 1-based index in p_appends).
CREATE OR REPLACE FUNCTION es_append_many(p_appends jsonb)
RETURNS TABLE (ord int, status text, out_revision bigint, out_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_append jsonb;
  v_ord    int;
BEGIN
  ${lock}
  FOR v_append, v_ord IN
    SELECT x.a, x.n::int FROM jsonb_array_elements(p_appends) WITH ORDINALITY AS x(a, n) ORDER BY x.n
  LOOP
    RETURN QUERY SELECT v_ord, r.status, r.out_revision, r.out_position
      FROM es_append(v_append->>'stream', v_append->>'expected', v_append->'events') AS r;
  END LOOP;
END
$fn$;
`;
}
