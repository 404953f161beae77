import { describe, expect, it } from '@jest/globals';
import { allProjections, queryIndex } from '@portal/projections';
import { builtAfterCatchUp } from './projection-runner.js';

describe('indexes built after a rebuild has caught up (decisions 0063, 0073)', () => {
  it('defers GIN indexes and the indexes marked as used by queries only', () => {
    expect(builtAfterCatchUp('CREATE INDEX IF NOT EXISTS t_search ON t USING gin (s gin_trgm_ops)')).toBe(
      true,
    );
    expect(builtAfterCatchUp(queryIndex('CREATE INDEX IF NOT EXISTS t_by_name ON t (name, id)'))).toBe(true);
  });

  it('builds unmarked btree indexes, unique indexes and tables with the schema', () => {
    expect(builtAfterCatchUp('CREATE INDEX IF NOT EXISTS t_by_name ON t (name, id)')).toBe(false);
    expect(builtAfterCatchUp(queryIndex('CREATE UNIQUE INDEX IF NOT EXISTS t_login ON t (login)'))).toBe(
      false,
    );
    expect(builtAfterCatchUp(queryIndex('CREATE TABLE IF NOT EXISTS t (id uuid PRIMARY KEY)'))).toBe(false);
    // The mark only counts at the start: a comment elsewhere does not defer an index.
    expect(builtAfterCatchUp(`CREATE INDEX t_x ON t (x) -- ${queryIndex('')}`)).toBe(false);
  });

  it('keeps the indexes the heavy projections look rows up by', () => {
    const ddl = (name: string) =>
      allProjections.flatMap((p) => p.schema).find((d) => d.includes(`EXISTS ${name} `))!;
    // Attendance erases a person's name from the ledger by amended_by->>'id' (UserPersonalDataErased).
    expect(builtAfterCatchUp(ddl('rm_attendance_amendments_by'))).toBe(false);
    // Notifications delete a user's attendance contacts by user_id.
    expect(builtAfterCatchUp(ddl('rm_notify_attendance_contacts_user'))).toBe(false);
    expect(builtAfterCatchUp(ddl('rm_users_full_name'))).toBe(true);
    expect(builtAfterCatchUp(ddl('rm_register_entries_student'))).toBe(true);
  });
});
