/**
 * Where the file store keeps webhook events: in the generation's own file, committed with the transition,
 * and in webhooks.json with their deliveries. Data dirs from before events moved keep loading.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type FileRepository } from '../src/store/index.ts';
import type { Generation } from '../src/domain/model.ts';
import type { WebhookDelivery, WebhookEvent } from '../src/domain/webhooks/types.ts';

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-events-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const NOW = new Date('2026-03-15T12:00:00.000Z');

/** A data dir holding one completed generation of a developer account, closed again. */
async function completedGeneration(dataDir: string): Promise<Generation> {
  const store = await openStore({ dataDir, clock: () => NOW });
  const account = await store.createAccount({ plan: 'developer' });
  const { generation } = await store.createGeneration(
    {
      account_id: account.id,
      prompt: 'x',
      duration: 30,
      style: null,
      instrumental: true,
      seed: 1,
      lyrics: null,
      callback_url: null,
    },
    { monthlyQuota: null },
  );
  const completed = await store.transaction((tx) =>
    tx.updateGeneration(generation.id, { status: 'completed', completed_at: NOW.toISOString() }),
  );
  await store.close();
  return completed;
}

function eventOf(generation: Generation): { event: WebhookEvent; delivery: WebhookDelivery } {
  const at = NOW.toISOString();
  const event: WebhookEvent = {
    id: 'evt_1',
    type: 'generation.completed',
    account_id: generation.account_id,
    generation_id: generation.id,
    created_at: at,
    transition_at: generation.completed_at,
  };
  const delivery: WebhookDelivery = {
    id: 'whd_1',
    event_id: 'evt_1',
    account_id: generation.account_id,
    endpoint_id: null,
    url: 'https://hooks.example.com/a',
    state: 'pending',
    attempts: [],
    round_attempts: 0,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  };
  return { event, delivery };
}

const generationFile = (dataDir: string, g: Generation) => join(dataDir, 'generations', g.account_id, `${g.id}.json`);

/** What a crash between the two writes leaves: the event in its generation's file, webhooks.json without it. */
async function eventInGenerationFileOnly(dataDir: string, generation: Generation) {
  const { event, delivery } = eventOf(generation);
  const record = JSON.parse(await readFile(generationFile(dataDir, generation), 'utf8'));
  record.webhook_events = [{ ...event, deliveries: [{ id: delivery.id, endpoint_id: null, url: delivery.url }] }];
  await writeFile(generationFile(dataDir, generation), JSON.stringify(record));
  return { event, delivery };
}

async function reopen(t: ExecutionContext, dataDir: string, now = NOW): Promise<FileRepository> {
  const store = await openStore({ dataDir, clock: () => now });
  t.teardown(() => store.close());
  return store;
}

test('a data dir from before events moved (events in webhooks.json alone) loads with its pending deliveries', async (t) => {
  const dataDir = await tempDir(t);
  const generation = await completedGeneration(dataDir);
  const { event, delivery } = eventOf(generation);
  await writeFile(
    join(dataDir, 'webhooks.json'),
    JSON.stringify({ endpoints: [], secrets: [], events: [event], deliveries: [delivery] }),
  );
  const store = await reopen(t, dataDir);
  t.like(await store.webhooks.getEvent('evt_1'), { generation_id: generation.id });
  t.deepEqual(
    (await store.webhooks.pendingDeliveries()).map((d) => d.id),
    ['whd_1'],
  );
  t.false(
    'webhook_events' in JSON.parse(await readFile(generationFile(dataDir, generation), 'utf8')),
    'the old generation file is left as it was',
  );
});

test('an event committed with its transition but missing from webhooks.json (a crash between) is recovered at open', async (t) => {
  const dataDir = await tempDir(t);
  const generation = await completedGeneration(dataDir);
  const { delivery } = await eventInGenerationFileOnly(dataDir, generation);
  const store = await reopen(t, dataDir);
  t.like(await store.webhooks.getEvent('evt_1'), {
    type: 'generation.completed',
    transition_at: generation.completed_at,
  });
  t.like(await store.webhooks.getDelivery('whd_1'), {
    state: 'pending',
    url: delivery.url,
    event_id: 'evt_1',
    attempts: [],
  });
  const saved = JSON.parse(await readFile(join(dataDir, 'webhooks.json'), 'utf8'));
  t.deepEqual(
    saved.events.map((e: WebhookEvent) => e.id),
    ['evt_1'],
    'and written back to webhooks.json',
  );
});

test('an event the delivery log has already settled and pruned is not brought back at open', async (t) => {
  const dataDir = await tempDir(t);
  const generation = await completedGeneration(dataDir);
  await eventInGenerationFileOnly(dataDir, generation);
  const store = await reopen(t, dataDir, new Date(NOW.getTime() + 15 * 24 * 3600 * 1000));
  t.is(await store.webhooks.getEvent('evt_1'), undefined);
  t.deepEqual(await store.webhooks.pendingDeliveries(), []);
});

test('a transition and its event land in the one write of the generation file', async (t) => {
  const dataDir = await tempDir(t);
  const generation = await completedGeneration(dataDir);
  const store = await reopen(t, dataDir);
  const { event, delivery } = eventOf(generation);
  await store.transaction(async (tx) => {
    await tx.updateGeneration(generation.id, { title: 'Retitled' });
    await tx.addEvent(event, [delivery]);
  });
  const record = JSON.parse(await readFile(generationFile(dataDir, generation), 'utf8'));
  t.is(record.title, 'Retitled');
  t.deepEqual(record.webhook_events, [
    { ...event, deliveries: [{ id: 'whd_1', endpoint_id: null, url: delivery.url }] },
  ]);
});

test('a deleted generation keeps none of its events', async (t) => {
  const dataDir = await tempDir(t);
  const generation = await completedGeneration(dataDir);
  const store = await reopen(t, dataDir);
  const { event, delivery } = eventOf(generation);
  await store.transaction((tx) => tx.addEvent(event, [delivery]));
  await store.deleteGeneration(generation.id);
  t.false('webhook_events' in JSON.parse(await readFile(generationFile(dataDir, generation), 'utf8')));
});
