/**
 * Event store schema, shared by PGlite and PostgreSQL. Appends go through one PL/pgSQL function so an
 * append is a single round trip. Global order is gap-safe: the function takes a transaction-level
 * advisory lock before it draws positions, so positions are handed out in commit order and a reader
 * that has seen position P will never later see a smaller one (see docs/decisions/0003-gap-safe-positions.md).
 */
export const EVENT_STORE_LOCK_KEY = 7_262_001;
export const APPEND_CHANNEL = 'es_appended';

export const EVENT_STORE_SCHEMA = /* sql */ `
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

CREATE TABLE IF NOT EXISTS es_streams (
  stream   text PRIMARY KEY,
  revision bigint NOT NULL
);

CREATE OR REPLACE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb)
RETURNS TABLE (status text, out_revision bigint, out_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_current bigint;
  v_count   int := jsonb_array_length(p_events);
  v_found   int;
  v_pos     bigint;
  v_rev     bigint;
  v_first   bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(${EVENT_STORE_LOCK_KEY});
  SELECT s.revision INTO v_current FROM es_streams s WHERE s.stream = p_stream;

  IF v_count > 0 THEN
    SELECT count(*), max(e.position), max(e.revision) INTO v_found, v_pos, v_rev
      FROM es_events e
     WHERE e.id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x)
       AND e.stream = p_stream;
    IF v_found = v_count THEN
      RETURN QUERY SELECT 'idempotent'::text, v_rev, v_pos;
      RETURN;
    END IF;
    IF v_found > 0 OR EXISTS (
      SELECT 1 FROM es_events e WHERE e.id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x)
    ) THEN
      RETURN QUERY SELECT 'duplicate_id'::text, coalesce(v_current, -1), 0::bigint;
      RETURN;
    END IF;
  END IF;

  IF NOT (
       p_expected = 'any'
    OR (p_expected = 'no_stream' AND v_current IS NULL)
    OR (p_expected = 'stream_exists' AND v_current IS NOT NULL)
    OR (p_expected ~ '^[0-9]+$' AND v_current IS NOT NULL AND v_current = p_expected::bigint)
  ) THEN
    RETURN QUERY SELECT 'conflict'::text, coalesce(v_current, -1), 0::bigint;
    RETURN;
  END IF;

  IF v_count = 0 THEN
    RETURN QUERY SELECT 'ok'::text, coalesce(v_current, -1),
      coalesce((SELECT max(e.position) FROM es_events e WHERE e.stream = p_stream), 0);
    RETURN;
  END IF;

  v_first := nextval('es_position_seq');
  IF v_count > 1 THEN
    PERFORM setval('es_position_seq', v_first + v_count - 1);
  END IF;

  INSERT INTO es_events (position, id, stream, revision, type, data, metadata)
  SELECT v_first + x.ord - 1,
         (x.e->>'id')::uuid,
         p_stream,
         coalesce(v_current, -1) + x.ord,
         x.e->>'type',
         x.e->'data',
         x.e->'metadata'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(e, ord);

  INSERT INTO es_streams (stream, revision) VALUES (p_stream, coalesce(v_current, -1) + v_count)
  ON CONFLICT (stream) DO UPDATE SET revision = EXCLUDED.revision;

  PERFORM pg_notify('${APPEND_CHANNEL}', (v_first + v_count - 1)::text);
  RETURN QUERY SELECT 'ok'::text, coalesce(v_current, -1) + v_count, v_first + v_count - 1;
END
$fn$;
`;
