import test from 'ava';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, UnsafePathError, openStore, type FileRepository as Store } from '../src/store/index.ts';
import { IdempotencyConflictError, NotFoundError, QuotaExceededError } from '../src/domain/errors.ts';
import type { NewGeneration } from '../src/domain/model.ts';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function setup(t: Parameters<typeof tempDir>[0], dataDir?: string): Promise<{ store: Store; dataDir: string }> {
  const dir = dataDir ?? (await tempDir(t));
  const store = await openStore({ dataDir: dir });
  t.teardown(() => store.close());
  return { store, dataDir: dir };
}

const request = (accountId: string, overrides: Partial<NewGeneration> = {}): NewGeneration => ({
  account_id: accountId,
  prompt: 'a calm lofi beat',
  duration: 60,
  style: null,
  instrumental: true,
  seed: 7,
  lyrics: null,
  callback_url: null,
  ...overrides,
});

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

test('a new generation is processing, counted, and readable after a reopen', async (t) => {
  const dataDir = await tempDir(t);
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'starter' });
  const { generation, replayed } = await first.createGeneration(request(account.id), { monthlyQuota: 10 });
  t.false(replayed);
  t.is(generation.status, 'processing');
  t.regex(generation.id, /^gen_[A-Za-z0-9_-]{22}$/);
  t.is(await first.usage(account.id, generation.quota_month), 1);
  await first.close();

  const second = await openStore({ dataDir });
  t.teardown(() => second.close());
  t.deepEqual(await second.getGeneration(account.id, generation.id), generation);
  t.is(await second.usage(account.id, generation.quota_month), 1);
  t.deepEqual(
    (await second.unfinishedGenerations()).map((g) => g.id),
    [generation.id],
  );
});

test('50 concurrent creates against a quota of 10 accept exactly 10', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, (_, seed) =>
      store.createGeneration(request(account.id, { seed }), { monthlyQuota: 10 }),
    ),
  );
  const accepted = results.filter((result) => result.status === 'fulfilled');
  const refused = results.filter((result) => result.status === 'rejected');
  t.is(accepted.length, 10);
  t.true(refused.every((result) => result.reason instanceof QuotaExceededError));
  t.is((await store.listGenerations(account.id, { limit: 100, offset: 0 })).total, 10);
});

test('a quota refusal names the limit and the first instant of next month (UTC)', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const now = new Date('2026-12-31T23:59:00Z');
  await store.createGeneration(request(account.id), { monthlyQuota: 1, now });
  const error = await t.throwsAsync(store.createGeneration(request(account.id), { monthlyQuota: 1, now }), {
    instanceOf: QuotaExceededError,
  });
  t.is(error?.limit, 1);
  t.is(error?.resetsAt.toISOString(), '2027-01-01T00:00:00.000Z');
});

test('a failed generation gives its quota unit back', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const { generation } = await store.createGeneration(request(account.id), { monthlyQuota: 1 });
  await store.transaction((tx) =>
    tx.updateGeneration(generation.id, { status: 'failed', error: { code: 'render_failed', message: 'x' } }),
  );
  t.is(await store.usage(account.id, generation.quota_month), 0);
  await t.notThrowsAsync(store.createGeneration(request(account.id), { monthlyQuota: 1 }));
});

test('a null quota never refuses', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'enterprise' });
  for (let i = 0; i < 20; i++) await store.createGeneration(request(account.id), { monthlyQuota: null });
  t.is((await store.listGenerations(account.id, { limit: 1, offset: 0 })).total, 20);
});

test('the same idempotency key and body replay the first generation, also after a reopen', async (t) => {
  const dataDir = await tempDir(t);
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'developer' });
  const idempotency = { key: 'abc', bodyHash: 'h1' };
  const [a, b] = await Promise.all([
    first.createGeneration(request(account.id), { monthlyQuota: 10, idempotency }),
    first.createGeneration(request(account.id), { monthlyQuota: 10, idempotency }),
  ]);
  t.is(a.generation.id, b.generation.id);
  t.deepEqual([a.replayed, b.replayed], [false, true]);
  await first.close();

  const second = await openStore({ dataDir });
  t.teardown(() => second.close());
  const again = await second.createGeneration(request(account.id), { monthlyQuota: 10, idempotency });
  t.true(again.replayed);
  t.is(again.generation.id, a.generation.id);
  t.is((await second.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
});

test('an idempotency key reused with another body is a conflict', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  await store.createGeneration(request(account.id), { monthlyQuota: 10, idempotency: { key: 'k', bodyHash: 'one' } });
  await t.throwsAsync(
    store.createGeneration(request(account.id), { monthlyQuota: 10, idempotency: { key: 'k', bodyHash: 'two' } }),
    {
      instanceOf: IdempotencyConflictError,
    },
  );
});

test('an idempotency key older than 24 hours makes a new generation', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const idempotency = { key: 'k', bodyHash: 'same' };
  const first = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    idempotency,
    now: new Date('2026-05-01T00:00:00Z'),
  });
  const later = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    idempotency,
    now: new Date('2026-05-02T00:00:01Z'),
  });
  t.false(later.replayed);
  t.not(later.generation.id, first.generation.id);
});

test('idempotency keys are per account', async (t) => {
  const { store } = await setup(t);
  const one = await store.createAccount({ plan: 'developer' });
  const two = await store.createAccount({ plan: 'developer' });
  const idempotency = { key: 'shared', bodyHash: 'h' };
  const a = await store.createGeneration(request(one.id), { monthlyQuota: null, idempotency });
  const b = await store.createGeneration(request(two.id), { monthlyQuota: null, idempotency });
  t.false(b.replayed);
  t.not(a.generation.id, b.generation.id);
});

test('another account cannot read a generation', async (t) => {
  const { store } = await setup(t);
  const owner = await store.createAccount({ plan: 'developer' });
  const other = await store.createAccount({ plan: 'developer' });
  const { generation } = await store.createGeneration(request(owner.id), { monthlyQuota: null });
  t.is(await store.getGeneration(other.id, generation.id), undefined);
  t.is((await store.listGenerations(other.id, { limit: 10, offset: 0 })).total, 0);
});

test('listing is newest first with ties broken by id, and filters by status', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'enterprise' });
  const same = new Date('2026-03-01T10:00:00Z');
  const tied = await Promise.all(
    [1, 2, 3].map((seed) => store.createGeneration(request(account.id, { seed }), { monthlyQuota: null, now: same })),
  );
  const newer = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    now: new Date('2026-03-01T11:00:00Z'),
  });
  const older = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    now: new Date('2026-03-01T09:00:00Z'),
  });
  const expected = [newer.generation.id, ...tied.map((r) => r.generation.id).sort(), older.generation.id];
  t.deepEqual(
    (await store.listGenerations(account.id, { limit: 10, offset: 0 })).items.map((g) => g.id),
    expected,
  );
  t.deepEqual(
    (await store.listGenerations(account.id, { limit: 2, offset: 1 })).items.map((g) => g.id),
    expected.slice(1, 3),
  );

  await store.transaction((tx) => tx.updateGeneration(tied[1]!.generation.id, { status: 'completed' }));
  const completed = await store.listGenerations(account.id, { status: 'completed', limit: 10, offset: 0 });
  t.is(completed.total, 1);
  t.is(completed.items[0]?.id, tied[1]!.generation.id);
  t.is((await store.listGenerations(account.id, { status: 'processing', limit: 10, offset: 0 })).total, 4);
});

test('updating an unknown generation is NotFoundError', async (t) => {
  const { store } = await setup(t);
  await t.throwsAsync(
    store.transaction((tx) => tx.updateGeneration('gen_nope', { status: 'completed' })),
    { instanceOf: NotFoundError },
  );
});

test('an update cannot move a generation to another account or month', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const { generation } = await store.createGeneration(request(account.id), { monthlyQuota: null });
  const updated = await store.transaction((tx) =>
    tx.updateGeneration(generation.id, {
      account_id: 'acct_other',
      quota_month: '1999-01',
      status: 'completed',
    } as never),
  );
  t.is(updated.account_id, account.id);
  t.is(updated.quota_month, generation.quota_month);
});

test('unfinished generations come oldest first and leave once terminal', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  const late = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    now: new Date('2026-02-02T00:00:00Z'),
  });
  const early = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    now: new Date('2026-02-01T00:00:00Z'),
  });
  const done = await store.createGeneration(request(account.id), {
    monthlyQuota: null,
    now: new Date('2026-02-03T00:00:00Z'),
  });
  await store.transaction((tx) => tx.updateGeneration(done.generation.id, { status: 'completed' }));
  t.deepEqual(
    (await store.unfinishedGenerations()).map((g) => g.id),
    [early.generation.id, late.generation.id],
  );
});

test('keys are found by their secret, listed without it, and revoked', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer', email: 'a@example.com' });
  const { key, record } = await store.createKey(account.id, 'laptop');
  t.regex(key, /^ts_live_[A-Za-z0-9_-]{43}$/);
  t.is(record.prefix, key.slice(0, 12));
  t.is((await store.findKey(key))?.id, record.id);
  t.is(await store.findKey(`${key}x`), undefined);
  t.is(await store.findKey(''), undefined);
  t.false(JSON.stringify(await store.listKeys()).includes(key));
  const revoked = await store.revokeKey(record.id);
  t.truthy(revoked.revoked_at);
  t.truthy((await store.findKey(key))?.revoked_at);
});

test('no plaintext key is written anywhere in the data dir', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  const account = await store.createAccount({ plan: 'developer' });
  const keys = await Promise.all([1, 2, 3].map(async () => (await store.createKey(account.id)).key));
  await store.touchKey((await store.findKey(keys[0]!))!.id, new Date());
  await store.createGeneration(request(account.id), { monthlyQuota: null });
  await store.close();
  const files = await allFiles(dataDir);
  t.true(files.some((file) => file.endsWith('accounts.json')));
  for (const file of files) {
    const content = await readFile(file, 'latin1');
    for (const key of keys) {
      t.false(content.includes(key), `${file} holds a key`);
      t.false(content.includes(key.slice(8)), `${file} holds a key's random part`);
    }
  }
});

test('touchKey is persisted by close', async (t) => {
  const dataDir = await tempDir(t);
  const store = await openStore({ dataDir });
  const account = await store.createAccount({ plan: 'developer' });
  const { record } = await store.createKey(account.id);
  const at = new Date('2026-04-01T12:00:00Z');
  await store.touchKey(record.id, at);
  await store.close();
  const reopened = await openStore({ dataDir });
  t.teardown(() => reopened.close());
  t.is((await reopened.listKeys())[0]?.last_used_at, at.toISOString());
});

test('account plans and custom figures update', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const updated = await store.updateAccount(account.id, { plan: 'enterprise', rpm: 1200, monthly: null });
  t.like(updated, { plan: 'enterprise', rpm: 1200, monthly: null });
  t.like(await store.getAccount(account.id), { plan: 'enterprise', rpm: 1200 });
  await t.throwsAsync(store.updateAccount('acct_missing', { plan: 'starter' }), { instanceOf: NotFoundError });
});

test('a second open of a locked data dir is refused', async (t) => {
  const { dataDir } = await setup(t);
  const error = await t.throwsAsync(openStore({ dataDir }), { instanceOf: DataDirLockedError });
  t.is(error?.pid, process.pid);
  t.regex(error?.message ?? '', /in use by another Tunesmith server/);
});

test('a lock left by a dead process is taken over', async (t) => {
  const dataDir = await tempDir(t);
  // A pid far above any pid_max in use stands for a process that no longer exists.
  const stale = {
    pid: 2 ** 30,
    hostname: hostname(),
    owner: 'server',
    started_at: '2020-01-01T00:00:00Z',
    boot_id: null,
    process_start: null,
  };
  await writeFile(join(dataDir, 'server.lock'), JSON.stringify(stale));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const lock = JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number };
  t.is(lock.pid, process.pid);
});

test('a half-written lock file does not block', async (t) => {
  const dataDir = await tempDir(t);
  await writeFile(join(dataDir, 'server.lock'), '');
  await t.notThrowsAsync(async () => (await openStore({ dataDir })).close());
});

test('close releases the lock', async (t) => {
  const dataDir = await tempDir(t);
  await (await openStore({ dataDir })).close();
  await t.notThrowsAsync(async () => (await openStore({ dataDir })).close());
});

test('blobs are written inside the data dir, at their key', async (t) => {
  const { store, dataDir } = await setup(t);
  await store.blobs.put('audio/acct_1/gen_1.wav', new Uint8Array([1, 2, 3]), { contentType: 'audio/wav' });
  t.deepEqual([...(await readFile(join(dataDir, 'audio/acct_1/gen_1.wav')))], [1, 2, 3]);
});

for (const bad of ['../outside.wav', 'audio/../../outside.wav', '/etc/passwd', 'audio/\0.wav', '', '..']) {
  test(`the blob store refuses the key ${JSON.stringify(bad)}`, async (t) => {
    const { store } = await setup(t);
    await t.throwsAsync(store.blobs.put(bad, new Uint8Array([1]), { contentType: 'audio/wav' }), {
      instanceOf: UnsafePathError,
    });
    t.is(await store.blobs.stat(bad), undefined);
  });
}

test('the blob store refuses a key through a symlink that leaves the data dir', async (t) => {
  const { store, dataDir } = await setup(t);
  const outside = await tempDir(t);
  await mkdir(join(dataDir, 'audio'), { recursive: true });
  await symlink(outside, join(dataDir, 'audio', 'escape'));
  await t.throwsAsync(store.blobs.put('audio/escape/file.wav', new Uint8Array([1]), { contentType: 'audio/wav' }), {
    instanceOf: UnsafePathError,
  });
  t.deepEqual(await readdir(outside), []);
});

test('a temp file left by a crash mid-write is cleaned up at open and the record stays whole', async (t) => {
  const dataDir = await tempDir(t);
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'developer' });
  const { generation } = await first.createGeneration(request(account.id), { monthlyQuota: null });
  await first.close();
  const dir = join(dataDir, 'generations', account.id);
  await writeFile(join(dir, `.${generation.id}.json.abc123.tmp`), '{"id": "gen_torn');
  const second = await openStore({ dataDir });
  t.teardown(() => second.close());
  t.is((await second.getGeneration(account.id, generation.id))?.id, generation.id);
  t.false((await readdir(dir)).some((name) => name.endsWith('.tmp')));
});

test('a lock whose pid now belongs to another process (pid reuse) is taken over', async (t) => {
  if (!existsSync('/proc/self/stat')) {
    t.pass('no /proc: pid reuse cannot be told apart here');
    return;
  }
  const dataDir = await tempDir(t);
  // The parent process is alive, but its start time is not the one the lock recorded.
  const reused = {
    pid: process.ppid,
    hostname: hostname(),
    owner: 'server',
    started_at: '2020-01-01T00:00:00Z',
    boot_id: null,
    process_start: '1',
  };
  await writeFile(join(dataDir, 'server.lock'), JSON.stringify(reused));
  await t.notThrowsAsync(async () => (await openStore({ dataDir })).close());
});

test('a lock from before a reboot is taken over', async (t) => {
  if (!existsSync('/proc/sys/kernel/random/boot_id')) {
    t.pass('no boot id on this system');
    return;
  }
  const dataDir = await tempDir(t);
  const beforeReboot = {
    pid: process.ppid,
    hostname: hostname(),
    owner: 'server',
    started_at: '2020-01-01T00:00:00Z',
    boot_id: 'another-boot',
    process_start: null,
  };
  await writeFile(join(dataDir, 'server.lock'), JSON.stringify(beforeReboot));
  await t.notThrowsAsync(async () => (await openStore({ dataDir })).close());
});

test('a lock held by another live process is refused', async (t) => {
  const dataDir = await tempDir(t);
  const live = {
    pid: process.ppid,
    hostname: hostname(),
    owner: 'server',
    started_at: '2020-01-01T00:00:00Z',
    boot_id: null,
    process_start: null,
  };
  await writeFile(join(dataDir, 'server.lock'), JSON.stringify(live));
  const error = await t.throwsAsync(openStore({ dataDir }), { instanceOf: DataDirLockedError });
  t.is(error?.pid, process.ppid);
});

async function finishedGeneration(store: Store, accountId: string, overrides: Partial<NewGeneration> = {}) {
  const { generation } = await store.createGeneration(request(accountId, overrides), { monthlyQuota: 10 });
  await store.blobs.put(`audio/${accountId}/${generation.id}.wav`, new Uint8Array([1]), { contentType: 'audio/wav' });
  await store.blobs.put(`audio/${accountId}/${generation.id}.mid`, new Uint8Array([2]), { contentType: 'audio/midi' });
  return store.transaction((tx) =>
    tx.updateGeneration(generation.id, {
      status: 'completed',
      files: { wav: `audio/${accountId}/${generation.id}.wav`, midi: `audio/${accountId}/${generation.id}.mid` },
    }),
  );
}

test('a deleted generation stays gone after a reopen, and its quota unit stays spent', async (t) => {
  const dataDir = await tempDir(t);
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'starter' });
  const generation = await finishedGeneration(first, account.id);
  await first.deleteGeneration(generation.id);
  await first.close();

  const second = await openStore({ dataDir });
  t.teardown(() => second.close());
  t.is(await second.getGeneration(account.id, generation.id), undefined);
  t.is((await second.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
  t.is(await second.usage(account.id, generation.quota_month), 1);
});

test('what is kept of a deleted generation holds neither its prompt nor its lyrics', async (t) => {
  const { store, dataDir } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const generation = await finishedGeneration(store, account.id, {
    prompt: 'my secret song',
    lyrics: 'private words',
    instrumental: false,
  });
  await store.deleteGeneration(generation.id);
  const kept = await readFile(join(dataDir, 'generations', account.id, `${generation.id}.json`), 'utf8');
  t.false(kept.includes('my secret song'));
  t.false(kept.includes('private words'));
});

test('an unfinished generation cannot be deleted', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const { generation } = await store.createGeneration(request(account.id), { monthlyQuota: 10 });
  await t.throwsAsync(store.deleteGeneration(generation.id), { instanceOf: TypeError });
  t.is((await store.getGeneration(account.id, generation.id))?.status, 'processing');
});

test('an idempotency key of a deleted generation makes a new one', async (t) => {
  const { store } = await setup(t);
  const account = await store.createAccount({ plan: 'starter' });
  const idempotency = { key: 'k-1', bodyHash: 'h' };
  const { generation } = await store.createGeneration(request(account.id), { monthlyQuota: 10, idempotency });
  await store.transaction((tx) => tx.updateGeneration(generation.id, { status: 'failed' }));
  await store.deleteGeneration(generation.id);
  const again = await store.createGeneration(request(account.id), { monthlyQuota: 10, idempotency });
  t.false(again.replayed);
  t.not(again.generation.id, generation.id);
});
