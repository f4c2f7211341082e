/**
 * Quota and rate limit across real processes: two `tunesmith serve` nodes (API only) on one PostgreSQL, the
 * requests split between them. Each limit must be one limit, whichever node a request lands on.
 */
import test, { type ExecutionContext } from 'ava';
import { openPostgresRepository } from '../../src/store/postgres/index.ts';
import { freshDatabase } from '../helpers/postgres.ts';
import { startServerProcess, tempDataDir, type ServerProcess } from '../helpers/process.ts';

/** A Starter account (and key) on a fresh database, then two API-only nodes on it. */
async function twoNodes(
  t: ExecutionContext,
  rpm?: number,
): Promise<{ nodes: [ServerProcess, ServerProcess]; key: string }> {
  const url = await freshDatabase(t);
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'starter', name: 'limits' });
  if (rpm !== undefined) await repository.updateAccount(account.id, { rpm });
  const { key } = await repository.createKey(account.id);
  await repository.close();
  // The bound on one account's unfinished tasks raised out of the way too (test/api-account-bounds.test.ts has it):
  // with no render workers none finishes, so the default bound would refuse before the quota does.
  const env = { TUNESMITH_DATABASE_URL: url, TUNESMITH_WORKERS: '0', TUNESMITH_MAX_TASKS_PER_ACCOUNT: '100' };
  const nodes = await Promise.all([
    startServerProcess(t, await tempDataDir(t), env),
    startServerProcess(t, await tempDataDir(t), env),
  ]);
  for (const node of nodes) t.truthy(node.url, node.output());
  return { nodes: nodes as [ServerProcess, ServerProcess], key };
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

test('30 parallel creates on a Starter key split over two nodes: exactly 10 accepted, the other 20 told the quota is used up', async (t) => {
  // The rate limit raised out of the way, so the monthly quota of 10 is what decides.
  const { nodes, key } = await twoNodes(t, 1000);
  // Each node serves a request first (pools open, code loaded), so neither starts the race seconds behind.
  for (const node of nodes)
    t.is((await fetch(`${node.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      fetch(`${nodes[i % 2]!.url}/v1/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: `a short piano piece number ${i}`, duration: 30 }),
      }),
    ),
  );
  const statuses = responses.map((res) => res.status);
  t.is(count(statuses, 202), 10, statuses.join(' '));
  t.is(count(statuses, 402), 20, statuses.join(' '));
  t.true(
    [0, 1].every((n) => responses.some((res, i) => i % 2 === n && res.status === 202)),
    'both nodes accepted some',
  );
  const refused = (await responses.find((res) => res.status === 402)!.json()) as { error: { code: string } };
  t.is(refused.error.code, 'quota_exceeded');
  const listed = (await (
    await fetch(`${nodes[1].url}/v1/generations?limit=100`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { data: unknown[] };
  t.is(listed.data.length, 10, 'the accepted ten, and nothing else, are stored');
});

test("a Starter key's 10 requests a minute are one limit over two nodes: 20 requests split between them, 10 answered and 10 refused with the headers", async (t) => {
  const { nodes, key } = await twoNodes(t);
  const responses: Response[] = [];
  const started = Date.now();
  // One after another, alternating, so the count is not a race but the shared bucket.
  for (let i = 0; i < 20; i++)
    responses.push(await fetch(`${nodes[i % 2]!.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } }));
  // The bucket refills one request every 6 s: on a slow machine the run may earn one back, never more.
  const refilled = Math.floor((Date.now() - started) / 6000);
  const statuses = responses.map((res) => res.status);
  t.deepEqual(statuses.slice(0, 10), Array(10).fill(200));
  t.true(count(statuses, 200) >= 10 && count(statuses, 200) <= 10 + refilled, statuses.join(' '));
  t.is(statuses.at(-1), 429);
  const last = responses.at(-1)!;
  t.is(last.headers.get('ratelimit-limit'), '10');
  t.is(last.headers.get('ratelimit-remaining'), '0');
  t.truthy(last.headers.get('retry-after'));
  t.is(((await last.json()) as { error: { code: string } }).error.code, 'rate_limit_exceeded');
});

test("one account's task bound and storage budget, set by the operator's environment, are one bound over two nodes", async (t) => {
  const url = await freshDatabase(t);
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'bounds' });
  const { key } = await repository.createKey(account.id);
  await repository.close();
  // No render workers: every task accepted stays waiting, so the bounds are what decides.
  const env = {
    TUNESMITH_DATABASE_URL: url,
    TUNESMITH_WORKERS: '0',
    TUNESMITH_MAX_TASKS_PER_ACCOUNT: '3',
    TUNESMITH_DISK_BUDGET_GB: '1',
  };
  const nodes = [
    await startServerProcess(t, await tempDataDir(t), env),
    await startServerProcess(t, await tempDataDir(t), env),
  ];
  for (const node of nodes) t.truthy(node.url, node.output());
  let turn = 0;
  const post = (body: Record<string, unknown>) =>
    fetch(`${nodes[turn++ % 2]!.url}/v1/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a short piano piece', ...body }),
    });
  // The heaviest track counts about 0.36 GB: two fit in 1 GB, a third does not.
  const heavy = { duration: 180, stems: true, sample_rate: 48000, bit_depth: 24 };
  t.is((await post(heavy)).status, 202);
  t.is((await post(heavy)).status, 202);
  const overBudget = await post(heavy);
  t.is(overBudget.status, 402);
  t.is(((await overBudget.json()) as { error: { code: string } }).error.code, 'storage_budget_exceeded');
  // A plain 30 s track still fits the budget, and is the third task waiting: the bound's last place.
  t.is((await post({ duration: 30 })).status, 202);
  const overBound = await post({ duration: 30 });
  t.is(overBound.status, 429);
  t.regex(overBound.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  t.is(((await overBound.json()) as { error: { code: string } }).error.code, 'too_many_tasks');
});
