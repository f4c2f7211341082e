import test from 'ava';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, startServerProcess, tempDataDir } from './helpers/process.ts';
import { awaitCompleted, awaitGeneration } from './helpers/long-poll.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

async function getJson(url: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('a first start on an empty data dir prints the real URL and a key that works', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  t.regex(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.notRegex(server.url, /:0$/);
  const key = firstKey(server.output());
  t.truthy(key, server.output());
  t.true(server.output().includes(`curl -s -X POST ${server.url}/v1/generate`));
  t.is((await getJson(`${server.url}/healthz`)).status, 200);
  t.is((await getJson(`${server.url}/v1/account`, key)).status, 200);
});

test('a second start on the same data dir prints no key', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  await first.kill('SIGTERM');
  const second = await startServerProcess(t, dataDir);
  t.truthy(second.url);
  t.is(firstKey(second.output()), '');
});

test('a second server on a data dir in use refuses to start with a clear message', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const second = await startServerProcess(t, dataDir);
  t.is(second.url, '');
  t.is((await second.exited).code, 1);
  t.true(
    second.output().includes(`The data dir ${dataDir} is in use by another Tunesmith server (pid ${first.child.pid})`),
    second.output(),
  );
});

test('SIGTERM stops the server with exit code 0 and releases the lock', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  t.true(existsSync(join(dataDir, 'server.lock')));
  t.deepEqual(await server.kill('SIGTERM'), { code: 0, signal: null });
  t.false(existsSync(join(dataDir, 'server.lock')));
});

test('the lock of a server killed with SIGKILL does not block the next start', async (t) => {
  const dataDir = await tempDataDir(t);
  const crashed = await startServerProcess(t, dataDir);
  await crashed.kill('SIGKILL');
  const lock = JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number };
  t.is(lock.pid, crashed.child.pid!);
  const next = await startServerProcess(t, dataDir);
  t.truthy(next.url, next.output());
});

test('keys created with the CLI while the server runs work against it at once', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const result = await runCli(['keys', 'create', '--plan', 'starter', '--json'], { TUNESMITH_DATA_DIR: dataDir });
  t.is(result.code, 0, result.stderr);
  const { key, key_id: keyId } = JSON.parse(result.stdout) as { key: string; key_id: string };
  t.is((await getJson(`${server.url}/v1/account`, key)).status, 200);
  t.is((await runCli(['keys', 'revoke', keyId], { TUNESMITH_DATA_DIR: dataDir })).code, 0);
  t.is((await getJson(`${server.url}/v1/account`, key)).status, 401);
});

test('a task interrupted by kill -9 mid-render completes after a restart', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  const created = await fetch(`${first.url}/v1/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a short upbeat pop tune with piano and drums', duration: 30, seed: 42 }),
  });
  t.is(created.status, 202);
  const { id } = (await created.json()) as { id: string };
  // Mid-render: the task has started on a thread and is not finished.
  await awaitGeneration(first.url, { authorization: `Bearer ${key}` }, id, {
    until: (body) => body.status === 'processing' && body.queue_position === 0 && Boolean(body.started_at),
    waitSeconds: 2,
    timeoutMs: 60_000,
    what: 'the render to start',
  });
  await first.kill('SIGKILL');

  const second = await startServerProcess(t, dataDir);
  t.truthy(second.url, second.output());
  const done = await awaitCompleted(second.url, { authorization: `Bearer ${key}` }, id, 150_000);
  const wavUrl = (done.download_urls as { wav: string }).wav;
  const wav = Buffer.from(await (await fetch(wavUrl)).arrayBuffer());
  t.is(wav.subarray(0, 4).toString('latin1'), 'RIFF');
  t.true(wav.length > 44 + 30 * 44_100, `WAV of ${wav.length} bytes`);
});
