/**
 * The generations module (src/domain/generations/) over a real file store in a temp dir and a queue that only
 * records: creation with its plan rules, quota and idempotency; cancel and delete rules; the files of a
 * completed task; and the webhook event each transition causes, committed with it.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRequest } from '../engine/index.ts';
import { Generations, type GenerationInput } from '../src/domain/generations/generations.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import {
  GenerationStateError,
  PlanForbiddenError,
  ServiceUnavailableError,
  QuotaExceededError,
} from '../src/domain/errors.ts';
import { DownloadSigner } from '../src/domain/download-links.ts';
import { openStore, type FileRepository } from '../src/store/index.ts';
import type { Account, PlanName } from '../src/domain/model.ts';
import { FakeJobQueue, ManualClock } from './helpers/app.ts';

const input = (overrides: Partial<GenerationInput> = {}): GenerationInput => ({
  prompt: 'a calm lofi beat',
  duration: 30,
  style: null,
  instrumental: true,
  seed: 1,
  lyrics: null,
  callback_url: null,
  ...overrides,
});

async function setup(t: ExecutionContext, options: { checkCallbackUrl?: false } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-generations-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const clock = new ManualClock();
  const store = await openStore({ dataDir, clock: clock.now });
  t.teardown(() => store.close());
  const woken: number[] = [];
  const lifecycle = new GenerationLifecycle({ repository: store, now: clock.now, onEvent: () => woken.push(1) });
  const jobs = new FakeJobQueue(clock.now);
  jobs.attach({ repository: store, blobs: store.blobs, lifecycle });
  const generations = new Generations({
    repository: store,
    blobs: store.blobs,
    jobs,
    checkRequest,
    checkCallbackUrl: options.checkCallbackUrl === false ? undefined : async () => undefined,
    signer: new DownloadSigner({ secret: 'test-secret', publicUrl: 'http://127.0.0.1:3000', ttlSeconds: 3600 }),
    now: clock.now,
  });
  const account = async (plan: PlanName = 'developer'): Promise<Account> => store.createAccount({ plan });
  return { store, lifecycle, jobs, generations, account, woken };
}

/** The types of the events recorded for the account's tasks, oldest first. */
async function eventTypes(store: FileRepository, accountId: string): Promise<string[]> {
  const { items } = await store.webhooks.listDeliveries(accountId, { limit: 100, offset: 0 });
  return Promise.all(items.reverse().map(async (d) => (await store.webhooks.getEvent(d.event_id))!.type));
}

test('a created task is saved processing and queued', async (t) => {
  const { generations, jobs, account } = await setup(t);
  const { generation, replayed } = await generations.create(await account(), input());
  t.false(replayed);
  t.is(generation.status, 'processing');
  t.deepEqual(
    jobs.queued.map((g) => g.id),
    [generation.id],
  );
});

test('a replayed create returns the first task and queues nothing more', async (t) => {
  const { generations, jobs, account } = await setup(t);
  const owner = await account();
  const idempotency = { key: 'k-1', bodyHash: 'h' };
  const first = await generations.create(owner, input(), { idempotency });
  const again = await generations.create(owner, input(), { idempotency });
  t.true(again.replayed);
  t.is(again.generation.id, first.generation.id);
  t.is(jobs.queued.length, 1);
});

test("a create past the plan's monthly quota is a QuotaExceededError and queues nothing", async (t) => {
  const { generations, jobs, account } = await setup(t);
  const starter = await account('starter');
  for (let seed = 0; seed < 10; seed++) await generations.create(starter, input({ seed }));
  await t.throwsAsync(generations.create(starter, input()), { instanceOf: QuotaExceededError });
  t.is(jobs.queued.length, 10);
});

test('a callback_url on Starter is a PlanForbiddenError', async (t) => {
  const { generations, account } = await setup(t);
  await t.throwsAsync(
    generations.create(await account('starter'), input({ callback_url: 'https://hooks.example.com/a' })),
    { instanceOf: PlanForbiddenError },
  );
});

test('a callback_url where nothing sends webhooks is a ServiceUnavailableError', async (t) => {
  const { generations, account } = await setup(t, { checkCallbackUrl: false });
  await t.throwsAsync(generations.create(await account(), input({ callback_url: 'https://hooks.example.com/a' })), {
    instanceOf: ServiceUnavailableError,
  });
});

test("another account's task is not found", async (t) => {
  const { generations, account } = await setup(t);
  const { generation } = await generations.create(await account(), input());
  t.is(await generations.find((await account()).id, generation.id), undefined);
  t.is(await generations.find(generation.account_id, '../etc/passwd'), undefined);
});

test('a finished task cannot be cancelled, and one in progress cannot be deleted', async (t) => {
  const { generations, jobs, account } = await setup(t);
  const { generation } = await generations.create(await account(), input());
  await t.throwsAsync(generations.delete(generation), { instanceOf: GenerationStateError });
  const completed = await jobs.complete(generation.id);
  await t.throwsAsync(generations.cancel(completed), { instanceOf: GenerationStateError });
});

test('deleting a completed task removes its files and its record', async (t) => {
  const { store, generations, jobs, account } = await setup(t);
  const { generation } = await generations.create(await account(), input());
  const completed = await jobs.complete(generation.id);
  t.truthy(await generations.file(generation.account_id, generation.id, 'wav'));
  await generations.delete(completed);
  t.is(await store.blobs.stat(completed.files!.wav!), undefined);
  t.is(await store.blobs.stat(completed.files!.midi!), undefined);
  t.is(await generations.find(generation.account_id, generation.id), undefined);
});

test('a completed task serves its files by format, with their size and type; one in progress has none', async (t) => {
  const { generations, jobs, account } = await setup(t);
  const { generation } = await generations.create(await account(), input());
  t.is(await generations.file(generation.account_id, generation.id, 'wav'), undefined);
  await jobs.complete(generation.id);
  const midi = await generations.file(generation.account_id, generation.id, 'midi');
  t.is(midi?.contentType, 'audio/midi');
  t.is(Buffer.concat(await (await midi!.open()).toArray()).length, midi!.size);
});

test('each transition records its event with it, for the callback_url, and wakes the deliveries', async (t) => {
  const { store, lifecycle, generations, account, woken } = await setup(t);
  const { generation } = await generations.create(
    await account(),
    input({ callback_url: 'https://hooks.example.com/a' }),
  );
  await lifecycle.transition(generation.id, { status: 'processing', started_at: new Date().toISOString() });
  await lifecycle.transition(generation.id, { status: 'completed', completed_at: new Date().toISOString() });
  // A callback_url hears of the end of a task only, not of its start.
  t.deepEqual(await eventTypes(store, generation.account_id), ['generation.completed']);
  t.is(woken.length, 1);
});

test('a move back to pending and a Starter task cause no event', async (t) => {
  const { store, lifecycle, generations, account, woken } = await setup(t);
  const { generation } = await generations.create(await account('starter'), input());
  await lifecycle.transition(generation.id, { status: 'pending' });
  await lifecycle.transition(generation.id, { status: 'failed', completed_at: new Date().toISOString() });
  t.deepEqual(await eventTypes(store, generation.account_id), []);
  t.is(woken.length, 0);
});

test('a render start after a retry keeps its event and restamps it', async (t) => {
  const { store, lifecycle, generations, account } = await setup(t);
  const owner = await account();
  await store.webhooks.addEndpoint({
    id: 'we_1',
    account_id: owner.id,
    url: 'https://hooks.example.com/a',
    events: ['generation.processing'],
    description: null,
    created_at: new Date().toISOString(),
    failing_since: null,
    disabled_at: null,
    disabled_reason: null,
  });
  const { generation } = await generations.create(owner, input());
  await lifecycle.transition(generation.id, { status: 'processing', started_at: '2026-03-15T12:00:01.000Z' });
  await lifecycle.transition(generation.id, { status: 'pending' });
  await lifecycle.transition(generation.id, { status: 'processing', started_at: '2026-03-15T12:00:09.000Z' });
  const { items } = await store.webhooks.listDeliveries(owner.id, { limit: 10, offset: 0 });
  t.is(items.length, 1);
  t.is((await store.webhooks.getEvent(items[0]!.event_id))?.transition_at, '2026-03-15T12:00:09.000Z');
});

test('a failed task gives its quota unit back', async (t) => {
  const { generations, lifecycle, account } = await setup(t);
  const starter = await account('starter');
  const { generation } = await generations.create(starter, input());
  await lifecycle.transition(generation.id, { status: 'failed', completed_at: new Date().toISOString() });
  t.is(await generations.usage(starter.id, generation.quota_month), 0);
});
