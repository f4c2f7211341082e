/**
 * The task transition table (src/domain/task-transitions.ts) and the lifecycle that enforces it, over a real file
 * store: every row does what it says (status, webhook event, quota unit), and every change of status the table
 * leaves out is refused with nothing written.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASK_TRANSITIONS, TransitionNotAllowedError, transitionOf } from '../src/domain/task-transitions.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import type { Generation, GenerationStatus } from '../src/domain/model.ts';
import { openStore, type FileRepository } from '../src/store/index.ts';
import { EVENT_TYPES } from '../src/domain/webhooks/types.ts';
import { newGeneration } from './helpers/new-generation.ts';

const STATUSES: readonly GenerationStatus[] = ['pending', 'processing', 'completed', 'failed'];

async function setup(t: ExecutionContext) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-transitions-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const lifecycle = new GenerationLifecycle({ repository: store });
  const account = await store.createAccount({ plan: 'developer' });
  await store.webhooks.addEndpoint({
    id: 'we_all',
    account_id: account.id,
    url: 'https://hooks.example.com/all',
    events: [...EVENT_TYPES],
    description: null,
    created_at: new Date().toISOString(),
    failing_since: null,
    disabled_at: null,
    disabled_reason: null,
  });
  /** A new task brought to `status` the way the table allows (a new task is processing). */
  const taskIn = async (status: GenerationStatus): Promise<Generation> => {
    const { generation } = await store.createGeneration(newGeneration(account.id, { duration: 30, request_id: null }), {
      monthlyQuota: null,
    });
    return status === 'processing' ? generation : lifecycle.transition(generation.id, { status });
  };
  return { store, lifecycle, account, taskIn };
}

/** The event types recorded for the account's tasks, oldest first. */
async function eventTypes(store: FileRepository, accountId: string): Promise<string[]> {
  const { items } = await store.webhooks.listDeliveries(accountId, { limit: 100, offset: 0 });
  return Promise.all(items.reverse().map(async (d) => (await store.webhooks.getEvent(d.event_id))?.type ?? '?'));
}

test('the table has one row per change of status, and none out of failed', (t) => {
  const pairs = TASK_TRANSITIONS.map(({ from, to }) => `${from}->${to}`);
  t.is(new Set(pairs).size, pairs.length);
  t.false(TASK_TRANSITIONS.some(({ from }) => from === 'failed'));
  // Out of completed only the completion that could not be written, into failed.
  t.deepEqual(
    TASK_TRANSITIONS.filter(({ from }) => from === 'completed').map(({ to, change }) => [to, change]),
    [['failed', 'unsave']],
  );
});

for (const row of TASK_TRANSITIONS) {
  test(`${row.from} -> ${row.to} (${row.change}) saves the status, records ${row.event ?? 'no event'} and ${row.refundsQuota ? 'gives the quota unit back' : 'keeps the quota unit'}`, async (t) => {
    const { store, lifecycle, account, taskIn } = await setup(t);
    const task = await taskIn(row.from);
    const eventsBefore = await eventTypes(store, account.id);
    const usageBefore = await store.usage(account.id, task.quota_month);
    const after = await lifecycle.transition(task.id, { status: row.to });
    t.is(after.status, row.to);
    t.deepEqual((await eventTypes(store, account.id)).slice(eventsBefore.length), row.event ? [row.event] : []);
    t.is(await store.usage(account.id, task.quota_month), usageBefore - (row.refundsQuota ? 1 : 0));
  });
}

for (const from of STATUSES) {
  for (const to of STATUSES) {
    if (transitionOf(from, to)) continue;
    test(`${from} -> ${to} is refused and writes nothing`, async (t) => {
      const { store, lifecycle, account, taskIn } = await setup(t);
      const task = await taskIn(from);
      const eventsBefore = await eventTypes(store, account.id);
      await t.throwsAsync(lifecycle.transition(task.id, { status: to }), { instanceOf: TransitionNotAllowedError });
      t.is((await store.getGeneration(account.id, task.id))?.status, from);
      t.deepEqual(await eventTypes(store, account.id), eventsBefore);
    });
  }
}

test('a patch that sets no status is no transition: saved without an event', async (t) => {
  const { store, lifecycle, account, taskIn } = await setup(t);
  const task = await taskIn('completed');
  const eventsBefore = await eventTypes(store, account.id);
  const after = await lifecycle.transition(task.id, { title: 'Renamed' });
  t.is(after.title, 'Renamed');
  t.deepEqual(await eventTypes(store, account.id), eventsBefore);
});
