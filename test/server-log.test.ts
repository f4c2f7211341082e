/** The log of the real server process: JSON lines on stdout, at the level asked for, with nothing secret. */
import test from 'ava';
import { eventually, startServerProcess, tempDataDir, type ServerProcess } from './helpers/process.ts';
import type { Json } from './helpers/json.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

/** The JSON lines written so far; any other line on stdout fails the parse, which is the point. */
const logLines = (server: ServerProcess): Json[] =>
  server
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);

test('stdout is JSON lines when it is not a terminal, the start among them', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const started = await eventually(
    () => logLines(server).find((line) => line.msg === 'server started'),
    10_000,
    'the start line',
  );
  t.like(started, { level: 30, url: server.url, workers: 1 });
});

test("the first start's key is shown on stderr and never written to the log", async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const key = firstKey(server.output());
  t.truthy(key);
  await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  await eventually(
    () => (logLines(server).some((line) => line.msg === 'request') ? true : undefined),
    10_000,
    'the request line',
  );
  t.false(server.stdout().includes(key));
});

test('a request is logged with its request id, path, status and account', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const key = firstKey(server.output());
  const res = await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  const { id: accountId } = (await res.json()) as { id: string };
  const reqId = res.headers.get('x-request-id');
  const line = await eventually(
    () => logLines(server).find((entry) => entry.req_id === reqId),
    10_000,
    'the request line',
  );
  t.like(line, { msg: 'request', method: 'GET', path: '/v1/account', status: 200, account_id: accountId });
});

test('TUNESMITH_LOG_LEVEL=warn leaves the request lines out', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t), { TUNESMITH_LOG_LEVEL: 'warn' });
  t.truthy(server.url);
  await (await fetch(`${server.url}/healthz`)).arrayBuffer();
  await (await fetch(`${server.url}/healthz`)).arrayBuffer();
  await server.kill('SIGTERM');
  t.deepEqual(logLines(server), []);
});

test("a render's transitions are logged: queued, started, completed with its render time", async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t));
  const key = firstKey(server.output());
  const res = await fetch(`${server.url}/v1/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a short calm piano piece', duration: 30, seed: 9 }),
  });
  const { id } = (await res.json()) as { id: string };
  const reqId = res.headers.get('x-request-id');
  await eventually(
    () => logLines(server).find((line) => line.gen_id === id && line.msg === 'task completed'),
    150_000,
    'the render to complete',
  );
  const mine = logLines(server).filter((line) => line.gen_id === id);
  t.deepEqual(
    mine.map((line) => line.msg),
    ['task queued', 'task started', 'task completed'],
  );
  t.true(mine.every((line) => line.req_id === reqId));
  t.true(mine[2]!.render_ms > 0);
});
