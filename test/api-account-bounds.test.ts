/** What one account can make the server spend (issue 29, point 8): a bound on its unfinished tasks. */
import test from 'ava';
import { loadConfig } from '../src/config.ts';
import { errorOf, startApp } from './helpers/app.ts';

test('an account past its bound of unfinished tasks gets a 429 too_many_tasks with Retry-After, and spends no quota', async (t) => {
  const app = await startApp(t, { maxTasksPerAccount: 3 });
  const { account, key } = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  // A burst in parallel: the bound holds however the requests interleave.
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => app.call(key, '/v1/generate', { json: { prompt: 'lofi', duration: 30 } })),
  );
  t.deepEqual(answers.map((res) => res.status).sort(), [202, 202, 202, 429, 429, 429]);
  const refused = answers.find((res) => res.status === 429)!;
  t.regex(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  const error = await errorOf(refused);
  t.like(error, { type: 'rate_limit_error', code: 'too_many_tasks' });
  t.regex(error.message, /has 3 tasks waiting or rendering; at most 3 at once/);
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 3);
  // A batch counts each of its variations.
  const [first] = app.jobs.queued;
  await app.jobs.complete(first!.id);
  const batch = await app.call(key, '/v1/generate', { json: { prompt: 'lofi', duration: 30, variations: 2 } });
  t.is(batch.status, 429);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'lofi', duration: 30 } })).status, 202);
});

test("another account is not held up by one account's full queue", async (t) => {
  const app = await startApp(t, { maxTasksPerAccount: 1 });
  const one = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  t.is((await app.call(one.key, '/v1/generate', { json: { prompt: 'lofi' } })).status, 202);
  t.is((await app.call(one.key, '/v1/generate', { json: { prompt: 'lofi' } })).status, 429);
  const other = await app.account('starter');
  t.is((await app.call(other.key, '/v1/generate', { json: { prompt: 'lofi' } })).status, 202);
});

test('TUNESMITH_MAX_TASKS_PER_ACCOUNT defaults to four per render thread, at least 8, and can be set', (t) => {
  t.is(loadConfig({ TUNESMITH_WORKERS: '4' }).maxTasksPerAccount, 16);
  t.is(loadConfig({ TUNESMITH_WORKERS: '1' }).maxTasksPerAccount, 8);
  t.is(loadConfig({ TUNESMITH_WORKERS: '1', TUNESMITH_MAX_TASKS_PER_ACCOUNT: '2' }).maxTasksPerAccount, 2);
  t.throws(() => loadConfig({ TUNESMITH_MAX_TASKS_PER_ACCOUNT: '0' }), { message: /TUNESMITH_MAX_TASKS_PER_ACCOUNT/ });
});

test('an idempotent retry while the account is at its bound replays the first answer instead of a 429', async (t) => {
  const app = await startApp(t, { maxTasksPerAccount: 1 });
  const { account, key } = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  const post = (idempotencyKey: string, json: Record<string, unknown> = { prompt: 'lofi', duration: 30 }) =>
    app.call(key, '/v1/generate', { json, headers: { 'Idempotency-Key': idempotencyKey } });
  const first = await post('retry-1');
  t.is(first.status, 202);
  const made = (await first.json()) as { id: string };
  // The client lost the answer and retries: the task it made is what fills the bound.
  const retry = await post('retry-1');
  t.is(retry.status, 202);
  t.is(((await retry.json()) as { id: string }).id, made.id);
  // A new request (another key) is still refused, and a changed body under the same key is still a conflict.
  t.is((await post('retry-2')).status, 429);
  t.is((await post('retry-1', { prompt: 'rock', duration: 30 })).status, 409);
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
  // A batch's retry is replayed the same way.
  await app.jobs.complete(made.id);
  const batch = await post('batch-1', { prompt: 'lofi', duration: 30, variations: 1 });
  t.is(batch.status, 202);
  t.is((await post('batch-1', { prompt: 'lofi', duration: 30, variations: 1 })).status, 202);
});
