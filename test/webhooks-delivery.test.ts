/** Webhook delivery against a real local receiver: signing, payload, retries, resend, disabling, slow receivers. */
import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { recordTransitionEvent } from '../src/domain/generations/webhook-events.ts';
import type { Generation } from '../src/domain/model.ts';
import { PostgresRepository } from '../src/store/postgres/index.ts';
import { startReceiver, startWebhookApp, until, verifyWebhook, type WebhookApp } from './helpers/webhooks.ts';
import type { Json } from './helpers/json.ts';

async function register(app: WebhookApp, key: string, url: string, events?: string[]) {
  const res = await app.call(key, '/v1/webhooks', { json: { url, ...(events ? { events } : {}) } });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return res.json();
}

async function generate(app: WebhookApp, key: string, body: Record<string, unknown> = {}) {
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat', duration: 30, ...body } });
  if (res.status !== 202) throw new Error(`generate: ${res.status} ${await res.text()}`);
  return res.json();
}

async function deliveries(app: WebhookApp, key: string, query = '') {
  return (await (await app.call(key, `/v1/webhooks/deliveries${query}`)).json()).data as Json[];
}

/** An app whose one endpoint has received a task's generation.completed. */
async function firstDelivered(t: ExecutionContext) {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  const created = await generate(app, key);
  const [received] = await receiver.waitFor(1);
  return { app, key, created, received: received! };
}

test('a registered endpoint receives a signed generation.completed that verifies with the recipe of docs/webhooks.md', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  const { secret } = await (await app.call(key, '/v1/webhooks/secret')).json();
  t.regex(secret, /^whsec_[A-Za-z0-9+/]+=*$/);

  await generate(app, key);
  const [received] = await receiver.waitFor(1);
  t.true(verifyWebhook(secret, received!.headers, received!.body));
  t.false(
    verifyWebhook(secret, received!.headers, received!.body.replace('completed', 'complete!')),
    'a changed body does not verify',
  );
  t.is(received!.headers['webhook-id'], received!.json.id);
  t.regex(received!.json.id, /^evt_/);
  t.is(received!.json.type, 'generation.completed');
  t.is(received!.headers['content-type'], 'application/json');
});

test("the event's data is the generation as GET /v1/generation/:id returns it, with download links that work", async (t) => {
  const { app, key, created, received } = await firstDelivered(t);
  const fetched = await (await app.call(key, `/v1/generation/${created.id}`)).json();
  const { data } = received.json;
  const withoutLinks = ({ download_urls: _u, download_expires_at: _e, ...rest }: Record<string, unknown>) => rest;
  t.deepEqual(withoutLinks(data), withoutLinks(fetched));
  t.is(data.status, 'completed');
  const wav = await fetch(data.download_urls.wav);
  t.is(wav.status, 200);
  t.is(wav.headers.get('content-type'), 'audio/wav');
  t.is(
    Buffer.from(await wav.arrayBuffer())
      .subarray(0, 4)
      .toString('latin1'),
    'RIFF',
  );
});

test('a receiver answering 500, 500, then 200 gets the event three times with the same webhook-id', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t, (n) => (n < 2 ? 500 : 200));
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key);
  const received = await receiver.waitFor(3);
  t.deepEqual(
    received.map((r) => r.answered),
    [500, 500, 200],
  );
  t.is(new Set(received.map((r) => r.headers['webhook-id'])).size, 1);
  t.is(new Set(received.map((r) => r.json.id)).size, 1);
  const log = await until(async () => {
    const list = await deliveries(app, key);
    return list[0]?.status === 'delivered' ? list[0] : undefined;
  }, 'the delivery to be marked delivered');
  t.deepEqual(
    log.attempts.map((a: Json) => a.status_code),
    [500, 500, 200],
  );
  t.deepEqual(
    log.attempts.map((a: Json) => a.error),
    ['HTTP 500', 'HTTP 500', null],
  );
  for (const attempt of log.attempts) {
    t.true(Number.isInteger(attempt.latency_ms) && attempt.latency_ms >= 0);
    t.false(Number.isNaN(Date.parse(attempt.at)));
  }
  t.is(log.next_attempt_at, null);
});

test('a delivery that fails every attempt of the schedule ends failed, with every attempt logged', async (t) => {
  const app = await startWebhookApp(t, { schedule: [20, 20] });
  const receiver = await startReceiver(t, () => 503);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key);
  const log = await until(async () => {
    const list = await deliveries(app, key, '?status=failed');
    return list.length === 1 ? list[0] : undefined;
  }, 'the delivery to fail');
  t.is(log.attempts.length, 3);
  t.is(receiver.requests.length, 3);
});

test('a redirect is not followed and counts as a failed attempt', async (t) => {
  const app = await startWebhookApp(t, { schedule: [] });
  const target = await startReceiver(t);
  const receiver = await startReceiver(t, () => 302);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key);
  const log = await until(async () => {
    const list = await deliveries(app, key, '?status=failed');
    return list.length === 1 ? list[0] : undefined;
  }, 'the delivery to fail');
  t.regex(log.attempts[0].error, /redirects are not followed/);
  t.is(target.requests.length, 0);
});

test('resend sends a delivered event again with the same webhook-id and logs the new attempt', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key);
  const [first] = await receiver.waitFor(1);
  const delivery = await until(async () => {
    const list = await deliveries(app, key, '?status=delivered');
    return list.length === 1 ? list[0] : undefined;
  }, 'the first delivery');
  const res = await app.call(key, `/v1/webhooks/deliveries/${delivery.id}/resend`, { method: 'POST' });
  t.is(res.status, 202);
  t.is((await res.json()).status, 'pending');
  const [, second] = await receiver.waitFor(2);
  t.is(second!.headers['webhook-id'], first!.headers['webhook-id']);
  const after = await until(async () => {
    const one = await (await app.call(key, `/v1/webhooks/deliveries/${delivery.id}`)).json();
    return one.status === 'delivered' && one.attempts.length === 2 ? one : undefined;
  }, 'the resend to be logged');
  t.is(after.attempts.length, 2);
});

test("a per-request callback_url gets its task's completed event; processing goes only to endpoints subscribed to it", async (t) => {
  const app = await startWebhookApp(t);
  const callback = await startReceiver(t);
  const endpoint = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, endpoint.url, ['generation.processing']);
  await generate(app, key, { callback_url: callback.url });
  const [completed] = await callback.waitFor(1);
  const [processing] = await endpoint.waitFor(1);
  t.is(completed!.json.type, 'generation.completed');
  t.is(processing!.json.type, 'generation.processing');
  t.is(processing!.json.data.status, 'processing');
  t.not(processing!.json.id, completed!.json.id);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(callback.requests.length, 1);
  t.is(endpoint.requests.length, 1);
});

test('a failed task sends generation.failed with the error', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key, { prompt: 'fail' });
  const [received] = await receiver.waitFor(1);
  t.is(received!.json.type, 'generation.failed');
  t.like(received!.json.data, { status: 'failed', error: { code: 'render_failed' } });
});

test('after a rotation both the old and the new secret verify, until the old one expires 24 h later', async (t) => {
  let now = Date.now();
  const app = await startWebhookApp(t, { now: () => new Date(now) });
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  const old = (await (await app.call(key, '/v1/webhooks/secret')).json()).secret;
  const rotated = await (await app.call(key, '/v1/webhooks/secret/rotate', { method: 'POST' })).json();
  t.not(rotated.secret, old);
  t.is(Date.parse(rotated.previous_expires_at) - now, 24 * 3600 * 1000);

  await generate(app, key);
  const [during] = await receiver.waitFor(1);
  t.is(String(during!.headers['webhook-signature']).split(' ').length, 2);
  t.true(verifyWebhook(old, during!.headers, during!.body));
  t.true(verifyWebhook(rotated.secret, during!.headers, during!.body));

  now += 24 * 3600 * 1000 + 1;
  t.is((await app.webhooks.service.signingSecrets((await app.store.listAccounts())[0]!.id)).length, 1);
  t.is((await (await app.call(key, '/v1/webhooks/secret')).json()).previous_expires_at, null);
});

test('an endpoint failing for longer than the limit is disabled, shown so, and can be enabled again', async (t) => {
  const app = await startWebhookApp(t, { disableAfterMs: 0 });
  const receiver = await startReceiver(t, () => 500);
  const { key } = await app.account();
  const endpoint = await register(app, key, receiver.url);
  await generate(app, key);
  const listed = await until(async () => {
    const { data } = await (await app.call(key, '/v1/webhooks')).json();
    return data[0].status === 'disabled' ? data[0] : undefined;
  }, 'the endpoint to be disabled');
  t.truthy(listed.disabled_at);
  t.regex(listed.disabled_reason, /failed/);
  const [delivery] = await deliveries(app, key);
  t.is(delivery?.status, 'failed');

  const before = receiver.requests.length;
  await generate(app, key);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(receiver.requests.length, before, 'a disabled endpoint gets no new events');

  const enabled = await (await app.call(key, `/v1/webhooks/${endpoint.id}/enable`, { method: 'POST' })).json();
  t.like(enabled, { status: 'enabled', disabled_at: null, failing_since: null });
});

test('a receiver that hangs holds up neither the API nor the renders', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t, () => 'hang');
  const { key } = await app.account();
  await register(app, key, receiver.url);
  const first = await generate(app, key);
  await receiver.waitFor(1);
  t.is(receiver.open(), 1);

  // While the receiver still holds the request open, everything else goes on.
  const got = await app.call(key, `/v1/generation/${first.id}`);
  t.is(got.status, 200);
  t.is((await got.json()).status, 'completed');
  const second = await generate(app, key, { prompt: 'another one' });
  const done = await until(async () => {
    const body = await (await app.call(key, `/v1/generation/${second.id}`)).json();
    return body.status === 'completed' ? body : undefined;
  }, 'the second render');
  t.is(done.status, 'completed');
  t.is(receiver.open() >= 1, true, 'the first request is still hanging');
});

/**
 * An account with an endpoint at a live receiver, and a task accepted but not queued: the job queue never
 * touches it, so the test plays the queue's part.
 */
async function unqueuedTask(t: ExecutionContext) {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { account, key } = await app.account();
  await register(app, key, receiver.url);
  const { generation } = await app.store.createGeneration(
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
  return { app, receiver, key, generation };
}

/** Records the event `as` would cause, without saving `as` itself: an event whose transition did not stick. */
async function eventWithoutItsTransition(app: WebhookApp, as: Generation): Promise<void> {
  await app.store.transaction((tx) => recordTransitionEvent(tx, as, new Date()));
  app.webhooks.wake();
}

test("a transition and its webhook event are committed together, in the generation's own file (or row and table)", async (t) => {
  const { app, receiver, generation } = await unqueuedTask(t);
  await app.lifecycle.transition(generation.id, { status: 'completed', completed_at: new Date().toISOString() });
  const [received] = await receiver.waitFor(1);
  if (app.store instanceof PostgresRepository) {
    const { rows } = await app.store.pool.query(
      'SELECT g.status, e.id, e.type, e.transition_at = g.completed_at AS stamped FROM generations g JOIN webhook_events e ON e.generation_id = g.id WHERE g.id = $1',
      [generation.id],
    );
    t.deepEqual(rows, [{ status: 'completed', id: received!.json.id, type: 'generation.completed', stamped: true }]);
    return;
  }
  const onDisk = JSON.parse(
    await readFile(join(app.store.dataDir, 'generations', generation.account_id, `${generation.id}.json`), 'utf8'),
  );
  t.is(onDisk.status, 'completed');
  t.like(onDisk.webhook_events, [
    { id: received!.json.id, type: 'generation.completed', transition_at: onDisk.completed_at },
  ]);
});

test('an event whose task ended otherwise (its completion unsaved, then failed) is cancelled, not sent', async (t) => {
  const { app, receiver, key, generation } = await unqueuedTask(t);
  await app.store.transaction((tx) =>
    tx.updateGeneration(generation.id, {
      status: 'failed',
      completed_at: new Date().toISOString(),
      error: { code: 'render_failed', message: 'no' },
    }),
  );
  await eventWithoutItsTransition(app, { ...generation, status: 'completed', completed_at: new Date().toISOString() });
  const delivery = await until(async () => {
    const list = await deliveries(app, key, '?status=cancelled');
    return list.length === 1 ? list[0] : undefined;
  }, 'the delivery to be cancelled');
  t.is(delivery.event_type, 'generation.completed');
  t.is(receiver.requests.length, 0);
});

test('an event of a generation deleted before it was sent is cancelled, not sent', async (t) => {
  const { app, receiver, key, generation } = await unqueuedTask(t);
  const completed = await app.store.transaction((tx) =>
    tx.updateGeneration(generation.id, { status: 'completed', completed_at: new Date().toISOString() }),
  );
  await app.store.deleteGeneration(generation.id);
  await eventWithoutItsTransition(app, completed);
  const delivery = await until(async () => {
    const list = await deliveries(app, key, '?status=cancelled');
    return list.length === 1 ? list[0] : undefined;
  }, 'the delivery to be cancelled');
  t.is(delivery.generation_id, generation.id);
  t.is(receiver.requests.length, 0);
});

test('an attempt that gets no answer within the time limit is logged as a timeout and retried', async (t) => {
  const app = await startWebhookApp(t, { timeoutMs: 300, schedule: [20] });
  const receiver = await startReceiver(t, (n) => (n === 0 ? 'hang' : 200));
  const { key } = await app.account();
  await register(app, key, receiver.url);
  await generate(app, key);
  const log = await until(async () => {
    const list = await deliveries(app, key, '?status=delivered');
    return list.length === 1 ? list[0] : undefined;
  }, 'the retry to be delivered');
  t.deepEqual(
    log.attempts.map((a: Json) => [a.status_code, a.error]),
    [
      [null, 'no answer within 0.3 s'],
      [200, null],
    ],
  );
  t.is(receiver.requests[0]!.headers['webhook-id'], receiver.requests[1]!.headers['webhook-id']);
});

test('a processing event sent after its task completed still shows the task as its render started', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { account, key } = await app.account();
  await register(app, key, receiver.url, ['generation.processing']);
  const { generation } = await app.store.createGeneration(
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
  // The render start is recorded only once the task has finished: its first attempt finds it completed.
  const startedAt = new Date().toISOString();
  await app.store.transaction((tx) =>
    tx.updateGeneration(generation.id, { status: 'processing', started_at: startedAt }),
  );
  const completed = await app.store.transaction((tx) =>
    tx.updateGeneration(generation.id, {
      status: 'completed',
      completed_at: new Date().toISOString(),
      title: 'Done',
      metadata: { genre: 'lofi', bpm: 80 },
      files: { wav: `audio/${account.id}/${generation.id}.wav`, midi: `audio/${account.id}/${generation.id}.mid` },
    }),
  );
  await eventWithoutItsTransition(app, { ...completed, status: 'processing', completed_at: null });
  const [received] = await receiver.waitFor(1);
  const { data } = received!.json;
  t.is(received!.json.type, 'generation.processing');
  t.like(data, { id: generation.id, status: 'processing', started_at: startedAt, completed_at: null, title: null });
  t.false('metadata' in data);
  t.false('download_urls' in data);
});

test('the outbox keeps an event as its transition stamp, not a copy of the task', async (t) => {
  const { app, created, received } = await firstDelivered(t);
  const onDisk =
    app.store instanceof PostgresRepository
      ? await outboxInDatabase(app.store)
      : JSON.parse(await readFile(join(app.store.dataDir, 'webhooks.json'), 'utf8'));
  const { id, created_at, data } = received.json;
  t.deepEqual(onDisk.events, [
    {
      id,
      type: 'generation.completed',
      account_id: onDisk.endpoints[0].account_id,
      generation_id: created.id,
      created_at,
      transition_at: data.completed_at,
    },
  ]);
});

test('a receiver that hangs holds at most its own share of attempts; another receiver gets its events meanwhile', async (t) => {
  const app = await startWebhookApp(t, { perReceiver: 1 });
  const slow = await startReceiver(t, () => 'hang');
  const fast = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, slow.url);
  await register(app, key, fast.url);
  for (const prompt of ['one', 'two', 'three']) await generate(app, key, { prompt });
  await fast.waitFor(3);
  await slow.waitFor(1);
  // The fast receiver hears each event a moment before its result is saved; the log shows saved results only.
  await until(
    async () => ((await deliveries(app, key, '?status=delivered')).length === 3 ? true : undefined),
    'the fast deliveries to be saved',
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(slow.requests.length, 1, 'one attempt at a time to the hanging receiver');
  t.is(slow.open(), 1);
  const pending = await deliveries(app, key, '?status=pending');
  t.is(pending.length, 3, "the slow receiver's deliveries wait their turn");
});

test('the delivery log lists newest first, paged by limit and offset, with the total', async (t) => {
  const app = await startWebhookApp(t);
  const receiver = await startReceiver(t);
  const { key } = await app.account();
  await register(app, key, receiver.url);
  const ids: string[] = [];
  for (const prompt of ['one', 'two', 'three']) {
    ids.push((await generate(app, key, { prompt })).id);
    await receiver.waitFor(ids.length);
  }
  const first = await (await app.call(key, '/v1/webhooks/deliveries?limit=2')).json();
  t.like(first, { total: 3, has_more: true });
  t.deepEqual(
    first.data.map((d: Json) => d.generation_id),
    [ids[2], ids[1]],
  );
  const rest = await (await app.call(key, '/v1/webhooks/deliveries?limit=2&offset=2')).json();
  t.like(rest, { total: 3, has_more: false });
  t.deepEqual(
    rest.data.map((d: Json) => d.generation_id),
    [ids[0]],
  );
});

/** The outbox's events and endpoints as the database holds them, in the shape of webhooks.json. */
async function outboxInDatabase(store: PostgresRepository) {
  const events = await store.pool.query(
    'SELECT id, type, account_id, generation_id, created_at, transition_at FROM webhook_events ORDER BY seq',
  );
  const endpoints = await store.pool.query('SELECT account_id FROM webhook_endpoints ORDER BY seq');
  const iso = (value: Date | null) => value?.toISOString();
  return {
    events: events.rows.map((e) => ({ ...e, created_at: iso(e.created_at), transition_at: iso(e.transition_at) })),
    endpoints: endpoints.rows,
  };
}
