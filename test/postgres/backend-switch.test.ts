/** The switch test/postgres/ relies on: after use-postgres.ts, startApp() runs on PostgreSQL. */
import './use-postgres.ts';
import test from 'ava';
import { PostgresRepository } from '../../src/store/postgres/index.ts';
import { startApp } from '../helpers/app.ts';

test('a suite imported after use-postgres.ts gets apps on PostgreSQL', async (t) => {
  const app = await startApp(t);
  t.is(app.backend, 'postgres');
  t.true(app.store instanceof PostgresRepository);
  const { key } = await app.account('starter');
  const res = await app.call(key, '/v1/account');
  t.is(res.status, 200);
});
