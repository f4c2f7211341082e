/** The throwaway PostgreSQL the backend tests stand on: a real server, a fresh database per test. */
import test from 'ava';
import pg from 'pg';
import { freshDatabase } from './helpers/postgres.ts';

test('freshDatabase gives each test its own empty database on a real PostgreSQL', async (t) => {
  const url = await freshDatabase(t);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ version: string; tables: string }>(
    "SELECT version() AS version, (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public')::text AS tables",
  );
  t.regex(rows[0]!.version, /^PostgreSQL \d+/);
  t.is(rows[0]!.tables, '0');
});

test('two fresh databases do not see each other', async (t) => {
  const [a, b] = [await freshDatabase(t), await freshDatabase(t)];
  t.not(a, b);
  const client = new pg.Client({ connectionString: a });
  await client.connect();
  t.teardown(() => client.end());
  await client.query('CREATE TABLE marker (x int)');
  const other = new pg.Client({ connectionString: b });
  await other.connect();
  t.teardown(() => other.end());
  const { rows } = await other.query("SELECT to_regclass('public.marker') AS found");
  t.is(rows[0]!.found, null);
});
