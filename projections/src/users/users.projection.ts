import { defineProjection, type ProjectionEvent } from '../projection.js';

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
  async apply(event: ProjectionEvent, tx) {
    switch (event.type) {
      case 'UserCreated': {
        const d = event.data as UserCreatedData;
        await tx.query(
          `INSERT INTO rm_users (id, login, email, first_name, last_name, user_type, permissions, has_access,
                                 created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, true, $8, $8, $9::bigint)`,
          [
            d.userId,
            d.login.toLowerCase(),
            d.email,
            d.firstName,
            d.lastName,
            d.userType,
            JSON.stringify(d.permissions),
            event.metadata.occurredAt,
            event.revision.toString(),
          ],
        );
        return;
      }
    }
  },
});
