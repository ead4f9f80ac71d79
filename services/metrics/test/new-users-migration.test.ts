import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createLogger, openDatabase } from '@gpt/kit';
import { createTestDatabase, dropTestDatabase } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { migrations } from '../src/data/migrations';
import { projectionsMigration } from '../src/data/migrations/0001-projections';

const logger = createLogger({ name: 'metrics-migration', level: 'silent' });
let url: string;

beforeAll(async () => {
  url = await createTestDatabase('metrics_new_users');
});
afterAll(() => dropTestDatabase(url));

const open = (set: typeof migrations) => openDatabase<unknown>({ service: 'metrics', url, migrations: set, logger });

describe('migration 0002: new users that still exist', () => {
  test('removals recorded before it come off their users’ sign-up days; the users count stays', async () => {
    // The projections as the first schema kept them: sign-ups per day, removals on the day they happened.
    const before = await open({ '0001_projections': projectionsMigration });
    try {
      await sql`insert into daily_stats (day, new_users, removed_users) values
                  ('2026-01-10', 3, 0), ('2026-01-12', 1, 2), ('2026-01-13', 0, 0)`.execute(before.db);
      await sql`insert into user_presence (user_id, registered_day, removed_day) values
                  (1, '2026-01-10', '2026-01-12'), (2, '2026-01-10', '2026-01-12'),
                  (3, '2026-01-10', null), (4, '2026-01-12', null), (5, null, '2026-01-13')`.execute(before.db);
    } finally {
      await before.close();
    }

    const after = await open(migrations);
    try {
      const { rows } = await sql<{ day: string; new_users: number }>`
        select day::text as day, new_users from daily_stats order by day`.execute(after.db);
      expect(rows).toEqual([
        { day: '2026-01-10', new_users: 1 },
        { day: '2026-01-12', new_users: 1 },
        { day: '2026-01-13', new_users: 0 },
      ]);
      const columns = await sql<{ column_name: string }>`
        select column_name from information_schema.columns
         where table_name = 'daily_stats' and table_schema = current_schema()`.execute(after.db);
      expect(columns.rows.map((c) => c.column_name)).not.toContain('removed_users');
    } finally {
      await after.close();
    }
  });
});
