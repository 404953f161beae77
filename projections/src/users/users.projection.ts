import { defineProjection, type ProjectionEvent, type ProjectionTx } from '../projection.js';

/** Event payloads this read model understands (written by server/src/identity). */
export interface UserCreatedData {
  userId: string;
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: 'super_admin' | 'teacher' | 'partner' | 'student';
  permissions: string[];
}

export interface UserRow {
  id: string;
  login: string;
  email: string;
  first_name: string;
  last_name: string;
  user_type: string;
  permissions: string[];
  has_access: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

const INSERT_COLUMNS = `id, login, email, first_name, last_name, user_type, permissions, has_access,
                        created_at, updated_at, version`;

function userRow(event: ProjectionEvent) {
  const d = event.data as UserCreatedData;
  return {
    id: d.userId,
    login: d.login.toLowerCase(),
    email: d.email,
    first_name: d.firstName,
    last_name: d.lastName,
    user_type: d.userType,
    permissions: d.permissions,
    created_at: event.metadata.occurredAt,
    version: event.revision.toString(),
  };
}

async function apply(event: ProjectionEvent, tx: ProjectionTx): Promise<void> {
  switch (event.type) {
    case 'UserCreated': {
      const r = userRow(event);
      await tx.query(
        `INSERT INTO rm_users (${INSERT_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, true, $8, $8, $9::bigint)`,
        [
          r.id,
          r.login,
          r.email,
          r.first_name,
          r.last_name,
          r.user_type,
          JSON.stringify(r.permissions),
          r.created_at,
          r.version,
        ],
      );
      return;
    }
  }
}

/** UserCreated events in one statement (the same rows `apply` writes one by one). */
async function insertUsers(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void> {
  await tx.query(
    `INSERT INTO rm_users (${INSERT_COLUMNS})
     SELECT r.id, r.login, r.email, r.first_name, r.last_name, r.user_type, r.permissions, true,
            r.created_at, r.created_at, r.version
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, login text, email text, first_name text, last_name text,
            user_type text, permissions jsonb, created_at timestamptz, version bigint)`,
    [JSON.stringify(events.map(userRow))],
  );
}

/** Runs of UserCreated become one INSERT each; any other event goes through `apply`, in order. */
async function applyBatch(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void> {
  const MAX_ROWS = 1000;
  let run: ProjectionEvent[] = [];
  for (const event of events) {
    if (event.type === 'UserCreated') {
      run.push(event);
      if (run.length < MAX_ROWS) continue;
    }
    if (run.length) await insertUsers(run, tx);
    run = [];
    if (event.type !== 'UserCreated') await apply(event, tx);
  }
  if (run.length) await insertUsers(run, tx);
}

export const usersProjection = defineProjection({
  name: 'users',
  version: 1,
  tables: ['rm_users'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_users (
       id          uuid PRIMARY KEY,
       login       text NOT NULL UNIQUE,
       email       text NOT NULL,
       first_name  text NOT NULL,
       last_name   text NOT NULL,
       user_type   text NOT NULL,
       permissions jsonb NOT NULL DEFAULT '[]',
       has_access  boolean NOT NULL DEFAULT true,
       created_at  timestamptz NOT NULL,
       updated_at  timestamptz NOT NULL,
       version     bigint NOT NULL
     )`,
  ],
  handles: ['UserCreated'],
  apply,
  applyBatch,
});
