/** Cancel, delete and the long poll against the real server process, with real renders. */
import test from 'ava';
import { startServerProcess, tempDataDir, type ServerProcess } from './helpers/process.ts';
import type { Json } from './helpers/json.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

function api(server: ServerProcess, key: string) {
  return async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.json ? 'POST' : 'GET'),
      headers: { authorization: `Bearer ${key}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
      ...(init.json ? { body: JSON.stringify(init.json) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
}

/** Long-polls a task until it is finished: a request a minute at most, whatever the machine's load. */
async function finished(call: ReturnType<typeof api>, id: string, onPoll: () => void = () => undefined): Promise<Json> {
  for (;;) {
    const { body } = await call(`/v1/generation/${id}?wait=60`);
    onPoll();
    if (body.status === 'completed' || body.status === 'failed') return body;
  }
}

test('a task cancelled mid-render ends failed with code cancelled and its quota unit back', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const call = api(server, firstKey(server.output()));
  const { body: created } = await call('/v1/generate', {
    json: { prompt: 'a long ambient drone', duration: 180, seed: 3 },
  });
  // Long polls of a few seconds: the status does not change when the render starts, so each answers after
  // its wait (12 requests a minute at most, of the first-start account's 60).
  for (let polls = 0; !(await call(`/v1/generation/${created.id}?wait=5`)).body.started_at; polls++) {
    if (polls > 12) throw new Error('the render did not start within a minute');
  }
  const cancelled = await call(`/v1/generation/${created.id}/cancel`, { method: 'POST' });
  t.is(cancelled.status, 200);
  t.like(cancelled.body, { status: 'failed', error: { code: 'cancelled' } });
  t.is((await call('/v1/account')).body.quota.used, 0);
});

test('a deleted generation is gone with its audio, and stays gone after a restart', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  const call = api(first, key);
  const { body: created } = await call('/v1/generate', {
    json: { prompt: 'a short calm piano piece', duration: 30, seed: 5 },
  });
  const done = await finished(call, created.id);
  t.is(done.status, 'completed');
  t.is((await call(`/v1/generation/${created.id}`, { method: 'DELETE' })).status, 204);
  t.is((await fetch(done.download_urls.wav)).status, 404);
  await first.kill('SIGTERM');

  const second = await startServerProcess(t, dataDir);
  const again = api(second, key);
  t.is((await again(`/v1/generation/${created.id}`)).status, 404);
  t.is((await again('/v1/account')).body.quota.used, 1);
});

test('a long poll follows a render to its end in a request or two', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const call = api(server, firstKey(server.output()));
  const { body: created } = await call('/v1/generate', {
    json: { prompt: 'a short calm piano piece', duration: 30, seed: 7 },
  });
  let polls = 0;
  const body = await finished(call, created.id, () => (polls += 1));
  t.is(body.status, 'completed');
  t.true(polls <= 3, `${polls} polls`);
});
