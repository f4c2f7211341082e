/** /v1/webhooks endpoints and secret: validation, isolation between accounts, limits. */
import test from 'ava';
import { join } from 'node:path';
import { errorOf, startApp } from './helpers/app.ts';
import { startWebhookApp } from './helpers/webhooks.ts';
import { PostgresRepository } from '../src/store/postgres/index.ts';

test('an endpoint is created (201, Location, default events), listed and deleted (204, then 404)', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account('enterprise');
  const res = await app.call(key, '/v1/webhooks', { json: { url: 'https://example.com/hooks', description: 'prod' } });
  t.is(res.status, 201);
  const endpoint = await res.json();
  t.is(res.headers.get('location'), `/v1/webhooks/${endpoint.id}`);
  t.like(endpoint, {
    object: 'webhook_endpoint',
    url: 'https://example.com/hooks',
    description: 'prod',
    status: 'enabled',
    disabled_at: null,
  });
  t.deepEqual(endpoint.events, ['generation.completed', 'generation.failed']);
  t.deepEqual((await (await app.call(key, '/v1/webhooks')).json()).data, [endpoint]);

  t.is((await app.call(key, `/v1/webhooks/${endpoint.id}`, { method: 'DELETE' })).status, 204);
  const again = await app.call(key, `/v1/webhooks/${endpoint.id}`, { method: 'DELETE' });
  t.is(again.status, 404);
  t.like(await errorOf(again), { code: 'webhook_endpoint_not_found', param: 'id' });
});

test('POST /v1/webhooks validates its body field by field', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account();
  const cases: [unknown, string, string][] = [
    [{}, 'url', 'missing_field'],
    [{ url: 'ftp://example.com/x' }, 'url', 'invalid_url'],
    [{ url: 'https://user:pw@example.com/' }, 'url', 'invalid_url'],
    [{ url: 'https://example.com/', events: [] }, 'events', 'invalid_type'],
    [{ url: 'https://example.com/', events: ['generation.started'] }, 'events', 'invalid_value'],
    [{ url: 'https://example.com/', secret: 'x' }, 'secret', 'unknown_field'],
  ];
  for (const [json, param, code] of cases) {
    const res = await app.call(key, '/v1/webhooks', { json });
    t.is(res.status, 400, JSON.stringify(json));
    t.like(await errorOf(res), { param, code });
  }
});

test('an account sees and changes only its own endpoints and deliveries', async (t) => {
  const app = await startWebhookApp(t);
  const alice = await app.account();
  const bob = await app.account();
  const endpoint = await (
    await app.call(alice.key, '/v1/webhooks', { json: { url: 'https://example.com/alice' } })
  ).json();
  t.deepEqual((await (await app.call(bob.key, '/v1/webhooks')).json()).data, []);
  t.is((await app.call(bob.key, `/v1/webhooks/${endpoint.id}`, { method: 'DELETE' })).status, 404);
  t.is((await app.call(bob.key, `/v1/webhooks/${endpoint.id}/enable`, { method: 'POST' })).status, 404);
  const aliceSecret = (await (await app.call(alice.key, '/v1/webhooks/secret')).json()).secret;
  const bobSecret = (await (await app.call(bob.key, '/v1/webhooks/secret')).json()).secret;
  t.not(aliceSecret, bobSecret);
  const resend = await app.call(bob.key, '/v1/webhooks/deliveries/whd_unknown/resend', { method: 'POST' });
  t.is(resend.status, 404);
  t.like(await errorOf(resend), { code: 'webhook_delivery_not_found' });
});

test('the secret is stable until rotated and kept in the store (the data dir, or the database)', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account();
  const first = await (await app.call(key, '/v1/webhooks/secret')).json();
  t.like(first, { object: 'webhook_secret', previous_expires_at: null });
  t.is((await (await app.call(key, '/v1/webhooks/secret')).json()).secret, first.secret);
  if (app.store instanceof PostgresRepository) {
    const { rows } = await app.store.pool.query('SELECT secret FROM webhook_secrets');
    t.deepEqual(
      rows.map((r) => r.secret),
      [first.secret],
    );
    return;
  }
  const { readFile } = await import('node:fs/promises');
  const onDisk = JSON.parse(await readFile(join(app.store.dataDir, 'webhooks.json'), 'utf8'));
  t.is(onDisk.secrets[0].secret, first.secret);
});

test('an account may have at most 10 endpoints', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account();
  for (let i = 0; i < 10; i++)
    t.is((await app.call(key, '/v1/webhooks', { json: { url: `https://example.com/${i}` } })).status, 201);
  const res = await app.call(key, '/v1/webhooks', { json: { url: 'https://example.com/11' } });
  t.is(res.status, 400);
  t.like(await errorOf(res), { code: 'too_many_endpoints' });
});

test('GET /v1/webhooks/deliveries refuses unknown and malformed query parameters', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account();
  for (const query of ['?limit=0', '?status=sent', '?page=2', '?limit=1&limit=2']) {
    t.is((await app.call(key, `/v1/webhooks/deliveries${query}`)).status, 400, query);
  }
  t.like(await (await app.call(key, '/v1/webhooks/deliveries')).json(), {
    object: 'list',
    data: [],
    total: 0,
    has_more: false,
  });
});

test('an app built without the webhooks module answers 503 on /v1/webhooks', async (t) => {
  const app = await startApp(t, { webhooks: false });
  const { key } = await app.account();
  const res = await app.call(key, '/v1/webhooks');
  t.is(res.status, 503);
  t.like(await errorOf(res), { code: 'service_unavailable' });
});

test('an app built without the webhooks module refuses a callback_url with the same 503, creating nothing', async (t) => {
  const app = await startApp(t, { webhooks: false });
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', callback_url: 'https://example.com/hook' } });
  t.is(res.status, 503);
  t.like(await errorOf(res), { code: 'service_unavailable', message: 'Webhooks are not running on this server.' });
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
  t.is(app.jobs.queued.length, 0);
});
