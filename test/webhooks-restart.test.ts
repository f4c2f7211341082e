/**
 * The outbox survives SIGKILL: a real server process renders a real 30 s track, its webhook delivery is
 * pending (the receiver answered 500), the process is killed, and the next start delivers the event,
 * signed, with the same webhook-id and a download link that works on the restarted server.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';
import { startReceiver, verifyWebhook } from './helpers/webhooks.ts';

test('a delivery pending when the server is killed with SIGKILL is delivered after the restart', async (t) => {
  t.timeout(180_000);
  const dataDir = await tempDataDir(t);
  const env = { TUNESMITH_WEBHOOK_ALLOW_PRIVATE: '1' };
  let healthy = false;
  const receiver = await startReceiver(t, () => (healthy ? 200 : 500));

  const first = await startServerProcess(t, dataDir, env);
  const key = /ts_live_[A-Za-z0-9_-]+/.exec(first.output())?.[0];
  t.truthy(key, 'the first start prints a key');
  const call = (base: string, path: string, init: RequestInit = {}) =>
    fetch(base + path, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } });

  t.is(
    (await call(first.url, '/v1/webhooks', { method: 'POST', body: JSON.stringify({ url: receiver.url }) })).status,
    201,
  );
  const { secret } = await (await call(first.url, '/v1/webhooks/secret')).json();
  const created = await (
    await call(first.url, '/v1/generate', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'calm piano for a rainy night', duration: 30 }),
    })
  ).json();

  // The first attempt was answered 500 and logged: the delivery waits for its retry in the outbox. Polled
  // once a second, within the Developer plan's 60 requests a minute however long the render takes.
  await eventually(
    async () => {
      const { data } = await (await call(first.url, '/v1/webhooks/deliveries')).json();
      return data?.[0]?.attempts.length === 1 && data[0].status === 'pending' ? data[0] : undefined;
    },
    120_000,
    'the first, failed attempt',
    1000,
  );
  t.is(receiver.requests[0]!.json.type, 'generation.completed');
  // The log is shown before its write lands on disk: kill only once the failed attempt is saved, so what the
  // restart is judged on below (the same delivery, retried) is not a write the kill cut short.
  await eventually(
    async () => {
      const saved = JSON.parse(await readFile(join(dataDir, 'webhooks.json'), 'utf8').catch(() => '{}')) as {
        deliveries?: { attempts: { status_code: number | null }[] }[];
      };
      return (
        saved.deliveries?.some((delivery) => delivery.attempts.some((attempt) => attempt.status_code === 500)) ||
        undefined
      );
    },
    10_000,
    'the failed attempt to be saved',
    100,
  );
  t.is((await first.kill('SIGKILL')).signal, 'SIGKILL');

  healthy = true;
  const second = await startServerProcess(t, dataDir, env);
  const delivered = await eventually(
    async () => receiver.requests.find((r) => r.answered === 200),
    30_000,
    'the delivery after the restart',
  );
  t.is(delivered.headers['webhook-id'], receiver.requests[0]!.headers['webhook-id']);
  t.true(verifyWebhook(secret, delivered.headers, delivered.body));
  t.like(delivered.json.data, { id: created.id, status: 'completed' });

  const wav = await fetch(delivered.json.data.download_urls.wav);
  t.is(wav.status, 200);
  const bytes = Buffer.from(await wav.arrayBuffer());
  t.is(bytes.subarray(0, 4).toString('latin1'), 'RIFF');
  t.true(bytes.length > 30 * 44_100 * 4, 'a whole 30 s stereo 16-bit track');

  const log = await eventually(
    async () => {
      const { data } = await (await call(second.url, '/v1/webhooks/deliveries')).json();
      return data?.[0]?.status === 'delivered' ? data[0] : undefined;
    },
    10_000,
    'the log to show it delivered',
  );
  t.deepEqual(
    log.attempts.map((a: { status_code: number }) => a.status_code),
    [500, 200],
  );
  await second.kill('SIGTERM');
});
