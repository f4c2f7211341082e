/**
 * A real full disk under a real server process: the data dir lives on a small tmpfs, too small for a rendered
 * track. The task must end failed (storage_full) with its quota back and no file left, the server must say 503
 * while the disk is full and recover once space is freed, and a start on a full disk must stop with one sentence.
 * Mounting needs root (as `npm test` runs in CI); elsewhere the test says so and passes.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';

/** Mounts a tmpfs of `megabytes` at a new dir inside a temp dir; null where this process may not mount. */
async function smallDisk(
  t: ExecutionContext,
  megabytes: number,
): Promise<{ dir: string; resize(megabytes: number): void } | null> {
  if (process.getuid?.() !== 0) return null;
  const dir = join(await tempDataDir(t), 'disk');
  await mkdir(dir);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]).status !== 0) return null;
  t.teardown(() => void spawnSync('umount', ['-l', dir]));
  return { dir, resize: (size) => execFileSync('mount', ['-o', `remount,size=${size}m`, dir]) };
}

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

interface Task {
  id: string;
  status: string;
  error: { code: string } | null;
}

test.serial(
  'a full disk fails the task with storage_full, returns its quota, leaves no file, and the server recovers when space is freed',
  async (t) => {
    const disk = await smallDisk(t, 2);
    if (!disk) {
      t.pass('not root or no tmpfs here: a real full disk cannot be made (the injected-writer tests still run)');
      return;
    }
    const dataDir = join(disk.dir, 'data');
    const seed = await openStore({ dataDir });
    const account = await seed.createAccount({ plan: 'starter' });
    const { key } = await seed.createKey(account.id);
    await seed.close();
    const before = new Set(await allFiles(dataDir));

    const server = await startServerProcess(t, dataDir);
    t.truthy(server.url, server.output());
    const api = (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
    const generate = () =>
      api('/v1/generate', { method: 'POST', body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }) });

    // A 30 s track is 5 MB of WAV: it cannot fit in 2 MB.
    const created = (await (await generate()).json()) as Task;
    const ended = await eventually(
      async () => {
        const task = (await (await api(`/v1/generation/${created.id}?wait=20`)).json()) as Task;
        return task.status === 'failed' || task.status === 'completed' ? task : undefined;
      },
      120_000,
      'the task to end',
    );
    t.is(ended.status, 'failed');
    t.is(ended.error?.code, 'storage_full');
    const account1 = (await (await api('/v1/account')).json()) as { quota: { used: number } };
    t.is(account1.quota.used, 0, 'the failed task gave its quota unit back');
    const audio = (await allFiles(dataDir)).filter((file) => file.startsWith('audio/'));
    t.deepEqual(audio, [], 'no partial WAV, MIDI or temp file is left');
    t.false((await allFiles(dataDir)).some((file) => file.endsWith('.tmp')));

    // The failed write left its space free again; a disk with no byte left is another matter: 503 with the reason.
    const filler = join(disk.dir, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k']);
    const refused = await generate();
    t.is(refused.status, 503);
    t.is(refused.headers.get('retry-after'), '60');
    t.is(((await refused.json()) as { error: { code: string } }).error.code, 'storage_unavailable');
    const health = await fetch(`${server.url}/healthz`);
    t.is(health.status, 503);
    t.regex(((await health.json()) as { error: { message: string } }).error.message, /disk .* is full/);

    // Space freed: healthy again, and a task completes.
    await rm(filler);
    disk.resize(64);
    await eventually(
      async () => ((await fetch(`${server.url}/healthz`)).status === 200 ? true : undefined),
      10_000,
      'healthz 200',
    );
    const second = (await (await generate()).json()) as Task;
    const done = await eventually(
      async () => {
        const task = (await (await api(`/v1/generation/${second.id}?wait=20`)).json()) as Task;
        return task.status === 'completed' || task.status === 'failed' ? task : undefined;
      },
      120_000,
      'the second task to end',
    );
    t.is(done.status, 'completed');
    t.is((await server.kill('SIGTERM')).code, 0);
    t.true((await allFiles(dataDir)).some((file) => !before.has(file) && file.endsWith('.wav')));
  },
);

test.serial(
  'a start on a full disk stops with one sentence naming the data dir, and starts once space is freed',
  async (t) => {
    const disk = await smallDisk(t, 1);
    if (!disk) {
      t.pass('not root or no tmpfs here: a real full disk cannot be made (the injected-writer tests still run)');
      return;
    }
    const dataDir = join(disk.dir, 'data');
    const seed = await openStore({ dataDir });
    await seed.createKey((await seed.createAccount({ plan: 'starter' })).id);
    await seed.close();
    // Fill every byte that is left.
    const filler = join(disk.dir, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k']);

    const refused = await startServerProcess(t, dataDir);
    t.is(refused.url, '');
    t.is((await refused.exited).code, 1);
    const said = refused.output().trim();
    t.is(said.split('\n').length, 1, said);
    t.regex(said, /is full/);
    t.true(said.includes(dataDir), said);
    t.notRegex(said, /\bat .+:\d+:\d+/);

    await writeFile(filler, '');
    const started = await startServerProcess(t, dataDir);
    t.truthy(started.url, started.output());
    t.is((await started.kill('SIGTERM')).code, 0);
  },
);
