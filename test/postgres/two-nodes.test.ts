/** Two API nodes (two apps, each with its own pool of connections) on one PostgreSQL database. */
import test from 'ava';
import { PostgresRepository } from '../../src/store/postgres/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { DashboardClient } from '../helpers/dashboard.ts';
import { freshDatabase } from '../helpers/postgres.ts';

async function twoNodes(t: import('ava').ExecutionContext): Promise<[TestApp, TestApp]> {
  const databaseUrl = await freshDatabase(t);
  return [await startApp(t, { databaseUrl }), await startApp(t, { databaseUrl })];
}

test('30 parallel creates on a Starter key split across two nodes accept exactly the quota of 10', async (t) => {
  const [a, b] = await twoNodes(t);
  // The rate limit raised out of the way, so only the quota can refuse.
  const { key, account } = await a.account('starter', { rpm: 1000 });
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).call(key, '/v1/generate', { json: { prompt: `track ${i}` } })),
  );
  const statuses = responses.map((r) => r.status);
  t.is(statuses.filter((s) => s === 202).length, 10);
  t.is(statuses.filter((s) => s === 402).length, 20);
  t.is((await b.store.listGenerations(account.id, { limit: 100, offset: 0 })).total, 10);
  t.is(a.jobs.queued.length + b.jobs.queued.length, 10);
  t.true(a.jobs.queued.length > 0 && b.jobs.queued.length > 0, 'both nodes accepted some');
});

test('the rate limit is one for the account across both nodes', async (t) => {
  const [a, b] = await twoNodes(t);
  const { key } = await a.account('starter');
  const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).call(key, '/v1/account')));
  const statuses = responses.map((r) => r.status);
  t.is(statuses.filter((s) => s === 200).length, 10);
  t.is(statuses.filter((s) => s === 429).length, 10);
  const refused = responses.find((r) => r.status === 429)!;
  t.is(refused.headers.get('RateLimit-Limit'), '10');
  t.is(refused.headers.get('RateLimit-Remaining'), '0');
  t.truthy(refused.headers.get('Retry-After'));
});

test('a generation created on one node is read, and its completion heard by a long poll, on the other', async (t) => {
  const [a, b] = await twoNodes(t);
  const { key } = await a.account('developer');
  const created = await (await a.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat' } })).json();
  t.is((await (await b.call(key, `/v1/generation/${created.id}`)).json()).status, 'processing');
  const waiting = b.call(key, `/v1/generation/${created.id}?wait=30`);
  // Only once b's long poll watches the task does a complete it: b must hear of it from the database.
  const nodeB = b.store;
  if (!(nodeB instanceof PostgresRepository)) throw new Error('not on PostgreSQL');
  while (!nodeB.watch.watching(created.id)) await new Promise((resolve) => setTimeout(resolve, 5));
  await a.jobs.complete(created.id);
  const answered = await (await waiting).json();
  t.is(answered.status, 'completed');
});

test('parallel sign-ups with one email split across both nodes make one account; the others are told the email is taken', async (t) => {
  const [a, b] = await twoNodes(t);
  const answers = await Promise.all(
    Array.from({ length: 4 }, (_, i) => new DashboardClient((i % 2 ? a : b).url).signUp('race@example.com')),
  );
  t.deepEqual(answers.map((answer) => answer.status).sort(), [303, 409, 409, 409]);
  t.is((await a.store.listAccounts()).filter((account) => account.email === 'race@example.com').length, 1);
});
