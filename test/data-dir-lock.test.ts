/**
 * One writer, always: a server whose server.lock was deleted by hand and taken by another process changes
 * nothing more (in memory or on disk) and says so; a lock that was only deleted is taken back.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockLostError, openStore } from '../src/store/index.ts';
import type { NewGeneration } from '../src/domain/model.ts';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-lock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const request = (accountId: string): NewGeneration => ({
  account_id: accountId,
  prompt: 'a calm piano piece',
  duration: 30,
  style: null,
  instrumental: true,
  seed: 1,
  lyrics: null,
  callback_url: null,
});

/** What a second server does once server.lock is gone: makes its own, for a live process (here the test runner's parent). */
async function lockTakenByAnotherProcess(dataDir: string): Promise<void> {
  const other = {
    pid: process.ppid,
    hostname: hostname(),
    owner: 'server',
    started_at: new Date().toISOString(),
    boot_id: null,
    process_start: null,
  };
  // A rename replaces the file in one step: there is no moment without a lock for the holder to take it back in.
  await writeFile(join(dataDir, 'server.lock.other'), JSON.stringify(other));
  await rename(join(dataDir, 'server.lock.other'), join(dataDir, 'server.lock'));
}

test('a store whose lock was taken by another process refuses every change and leaves memory and disk as they were', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const account = await store.createAccount({ plan: 'starter' });
  await lockTakenByAnotherProcess(dataDir);

  await t.throwsAsync(store.createGeneration(request(account.id), { monthlyQuota: 10 }), {
    instanceOf: DataDirLockLostError,
  });
  await t.throwsAsync(store.createKey(account.id), { instanceOf: DataDirLockLostError });
  await t.throwsAsync(store.blobs.put('audio/x.wav', new Uint8Array([1]), { contentType: 'audio/wav' }), {
    instanceOf: DataDirLockLostError,
  });
  t.false(store.holdsLock());
  t.is(await store.usage(account.id, new Date().toISOString().slice(0, 7)), 0);
  t.is((await store.listKeys(account.id)).length, 0);
  t.false(existsSync(join(dataDir, 'generations', account.id)));
  t.false(existsSync(join(dataDir, 'audio')));
});

test('a lost lock stays lost: the other process leaving does not hand the data dir back', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  await lockTakenByAnotherProcess(dataDir);
  t.false(store.holdsLock());
  await unlink(join(dataDir, 'server.lock'));
  t.false(store.holdsLock());
  await t.throwsAsync(store.createAccount({ plan: 'starter' }), { instanceOf: DataDirLockLostError });
  t.false(existsSync(join(dataDir, 'server.lock')), 'a store that lost its lock never makes a new one');
});

test('the sign-in data, webhooks and settings in the data dir are refused too once the lock is lost', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  await lockTakenByAnotherProcess(dataDir);
  await t.throwsAsync(store.credentials.issueSignInToken('acct_x', new Date(), 60_000), {
    instanceOf: DataDirLockLostError,
  });
  await t.throwsAsync(
    store.webhooks.addSecretIfAbsent({
      account_id: 'acct_x',
      secret: 'whsec_x',
      previous: null,
      previous_expires_at: null,
      created_at: new Date().toISOString(),
    }),
    { instanceOf: DataDirLockLostError },
  );
  await t.throwsAsync(store.settings.put('render-speed', { per_audio_second: 0.05 }), {
    instanceOf: DataDirLockLostError,
  });
  t.false(existsSync(join(dataDir, 'dashboard.json')));
  t.false(existsSync(join(dataDir, 'webhooks.json')));
});

test('a lock file that was only deleted is made again by its holder, which goes on writing', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  await unlink(join(dataDir, 'server.lock'));
  const account = await store.createAccount({ plan: 'starter' });
  t.truthy(await store.getAccount(account.id));
  const lock = JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number };
  t.is(lock.pid, process.pid);
  t.true(store.holdsLock());
  // And a second open is refused again, as before the deletion.
  await t.throwsAsync(openStore({ dataDir }));
});

test('a server that lost its data dir to another server refuses writes with a 503, says so in /healthz and its log, and the other keeps the data', async (t) => {
  const dataDir = await tempDataDir(t);
  const seed = await openStore({ dataDir });
  const account = await seed.createAccount({ plan: 'starter' });
  const { key } = await seed.createKey(account.id);
  await seed.close();

  const first = await startServerProcess(t, dataDir);
  t.truthy(first.url, first.output());
  const generate = (url: string) =>
    fetch(`${url}/v1/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }),
    });
  t.is((await generate(first.url)).status, 202);

  // Deleted by hand, then a second server starts: it makes its own lock (the rename stands for that moment).
  await lockTakenByAnotherProcess(dataDir);
  const refused = await generate(first.url);
  t.is(refused.status, 503);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  t.is(body.error.code, 'service_unavailable');
  t.regex(body.error.message, /another Tunesmith server took over its data/);
  const health = await fetch(`${first.url}/healthz`);
  t.is(health.status, 503);
  t.regex(((await health.json()) as { error: { message: string } }).error.message, /lost its data dir/);
  await eventually(
    () => (first.stdout().includes('lost the data-dir lock') ? true : undefined),
    10_000,
    'the log line',
  );

  // The second server really starts and is the one writer; the first still refuses.
  await unlink(join(dataDir, 'server.lock'));
  const second = await startServerProcess(t, dataDir);
  t.truthy(second.url, second.output());
  t.is((await generate(second.url)).status, 202);
  t.is((await generate(first.url)).status, 503);

  t.is((await first.kill('SIGTERM')).code, 0, first.output());
  t.true(existsSync(join(dataDir, 'server.lock')), "the first server leaves the second one's lock alone");
  await second.kill('SIGTERM');
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const files = await readdir(join(dataDir, 'generations', account.id));
  t.is(
    files.filter((name) => name.endsWith('.json')).length,
    2,
    'one from each server while it held the lock, none after',
  );
  t.is((await store.listGenerations(account.id, { limit: 10, offset: 0 })).items.length, 2);
});
