/** What the PostgreSQL repository promises beyond the contract: several nodes on one database, migrations, the enqueue hook. */
import test from 'ava';
import { MIGRATIONS, migrate, openPostgresRepository, type PostgresRepository } from '../src/store/postgres/index.ts';
import { QuotaExceededError } from '../src/domain/errors.ts';
import type { Generation, NewGeneration } from '../src/domain/model.ts';
import { freshDatabase } from './helpers/postgres.ts';
import { storageBytesOf } from '../src/domain/generations/storage-budget.ts';

const request = (accountId: string, seed = 1): NewGeneration => ({
  account_id: accountId,
  prompt: 'a calm lofi beat',
  duration: 30,
  style: null,
  instrumental: true,
  seed,
  lyrics: null,
  callback_url: null,
});

async function open(
  t: import('ava').ExecutionContext,
  url: string,
  options: Partial<Parameters<typeof openPostgresRepository>[0]> = {},
): Promise<PostgresRepository> {
  const repository = await openPostgresRepository({ url, ...options });
  t.teardown(() => repository.close());
  return repository;
}

test('two nodes starting together on an empty database apply each migration once', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = await Promise.all([open(t, url), open(t, url)]);
  const { rows } = await a.pool.query('SELECT version FROM schema_migrations ORDER BY version');
  t.deepEqual(
    rows.map((r) => r.version),
    MIGRATIONS.map((m) => m.version),
  );
  t.deepEqual(await migrate(b.pool), [], 'a later start has nothing left to apply');
});

test('creates on two nodes never pass the quota between them', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = [await open(t, url), await open(t, url)];
  const account = await a.createAccount({ plan: 'starter' });
  const results = await Promise.allSettled(
    Array.from({ length: 16 }, (_, seed) =>
      (seed % 2 ? a : b).createGeneration(request(account.id, seed), { monthlyQuota: 5 }),
    ),
  );
  t.is(results.filter((r) => r.status === 'fulfilled').length, 5);
  t.true(results.every((r) => r.status === 'fulfilled' || r.reason instanceof QuotaExceededError));
  t.is(
    await b.usage(
      account.id,
      (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ generation: Generation }>).value
        .generation.quota_month,
    ),
    5,
  );
});

test('the same idempotency key sent to two nodes at once makes one generation', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = [await open(t, url), await open(t, url)];
  const account = await a.createAccount({ plan: 'developer' });
  const idempotency = { key: 'same', bodyHash: 'h' };
  const results = await Promise.all(
    [a, b, a, b].map((node) => node.createGeneration(request(account.id), { monthlyQuota: null, idempotency })),
  );
  t.is(new Set(results.map((r) => r.generation.id)).size, 1);
  t.is(results.filter((r) => !r.replayed).length, 1);
});

test('a watcher on one node hears a change committed on another, and the delete', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = [await open(t, url), await open(t, url)];
  const account = await a.createAccount({ plan: 'developer' });
  const { generation } = await a.createGeneration(request(account.id), { monthlyQuota: null });
  const heard: (string | undefined)[] = [];
  // The other node reads the row back when it hears of a change, so it hands on the row as it is then: each
  // change is awaited before the next, or a delete committed at once would be read back for both.
  let onHeard = () => {};
  b.watchGeneration(generation.id, (g) => {
    heard.push(g?.status);
    onHeard();
  });
  const nextHeard = () => new Promise<void>((resolve) => (onHeard = resolve));
  const completed = nextHeard();
  await a.transaction((tx) => tx.updateGeneration(generation.id, { status: 'completed', title: 'Done' }));
  await completed;
  const deleted = nextHeard();
  await a.deleteGeneration(generation.id);
  await deleted;
  t.deepEqual(heard, ['completed', undefined]);
});

test('the enqueue hook runs inside the create transaction: when it fails, no generation is left and no quota spent', async (t) => {
  const url = await freshDatabase(t);
  const failing = await open(t, url, {
    enqueue: async (db, generation) => {
      const { rows } = await db.query('SELECT status FROM generations WHERE id = $1', [generation.id]);
      t.is(rows[0]?.status, 'processing', 'the hook sees the new row');
      throw new Error('queue down');
    },
  });
  const account = await failing.createAccount({ plan: 'developer' });
  await t.throwsAsync(failing.createGeneration(request(account.id), { monthlyQuota: 1 }), { message: 'queue down' });
  t.is((await failing.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
  const other = await open(t, url);
  await t.notThrowsAsync(other.createGeneration(request(account.id), { monthlyQuota: 1 }));
});

test('the enqueue hook is called once per new generation and never for a replay', async (t) => {
  const url = await freshDatabase(t);
  const enqueued: string[] = [];
  const repository = await open(t, url, { enqueue: async (_db, generation) => void enqueued.push(generation.id) });
  const account = await repository.createAccount({ plan: 'developer' });
  const idempotency = { key: 'k', bodyHash: 'h' };
  const first = await repository.createGeneration(request(account.id), { monthlyQuota: null, idempotency });
  await repository.createGeneration(request(account.id), { monthlyQuota: null, idempotency });
  t.deepEqual(enqueued, [first.generation.id]);
});

test('a generation keeps its optional fields through the database exactly', async (t) => {
  const repository = await open(t, await freshDatabase(t));
  const account = await repository.createAccount({ plan: 'developer' });
  const { generation } = await repository.createGeneration(
    {
      ...request(account.id, 4_294_967_295),
      request_id: 'req_1',
      encoding: { sample_rate: 48000, bit_depth: 24, bitrate: 192 },
      stems: true,
      loop: true,
      music: { bpm: 120 } as never,
    },
    { monthlyQuota: null },
  );
  const files = { wav: 'audio/a/x.wav', midi: 'audio/a/x.mid', stems: { drums: 'audio/a/x.drums.wav' } };
  await repository.transaction((tx) =>
    tx.updateGeneration(generation.id, {
      status: 'completed',
      files,
      metadata: { bpm: 120, sections: [1, 2] },
      completed_at: '2026-03-15T12:00:00.123Z',
    }),
  );
  const read = await repository.getGeneration(account.id, generation.id);
  t.like(read, {
    seed: 4_294_967_295,
    request_id: 'req_1',
    encoding: { sample_rate: 48000, bit_depth: 24, bitrate: 192 },
    stems: true,
    loop: true,
    music: { bpm: 120 },
    files,
    completed_at: '2026-03-15T12:00:00.123Z',
  });
  t.deepEqual(read?.metadata, { bpm: 120, sections: [1, 2] });
});

test('a shared secret is made once, whichever node asks first', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = [await open(t, url), await open(t, url)];
  const [x, y] = await Promise.all([
    a.sharedSecret('signing', () => 'from-a'),
    b.sharedSecret('signing', () => 'from-b'),
  ]);
  t.is(x, y);
  t.is(await a.sharedSecret('signing', () => 'later'), x);
});

test('the search of a list treats % and _ as plain text', async (t) => {
  const repository = await open(t, await freshDatabase(t));
  const account = await repository.createAccount({ plan: 'developer' });
  await repository.createGeneration({ ...request(account.id), prompt: '100% Lofi' }, { monthlyQuota: null });
  await repository.createGeneration({ ...request(account.id), prompt: '1000 lofi' }, { monthlyQuota: null });
  t.deepEqual(
    (await repository.listGenerations(account.id, { search: '0% lo', limit: 10, offset: 0 })).items.map(
      (g) => g.prompt,
    ),
    ['100% Lofi'],
  );
});

test('a closed node says it is not healthy and refuses changes', async (t) => {
  const repository = await openPostgresRepository({ url: await freshDatabase(t) });
  t.true(await repository.healthy());
  await repository.close();
  t.false(await repository.healthy());
  await t.throwsAsync(repository.createAccount({ plan: 'starter' }), { name: 'StoreClosedError' });
});

test('the kept counts behind a page total match a count of the rows after parallel transitions back and forth on two nodes', async (t) => {
  const url = await freshDatabase(t);
  const [a, b] = [await open(t, url), await open(t, url)];
  const account = await a.createAccount({ plan: 'developer' });
  const created = await Promise.all(
    Array.from({ length: 24 }, (_, seed) => a.createGeneration(request(account.id, seed), { monthlyQuota: null })),
  );
  const ids = created.map((c) => c.generation.id);
  const statuses = ['completed', 'failed', 'processing'] as const;
  // Each round moves every task on one node or the other, in parallel: counters of the same statuses are fought over.
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? a : b).transaction((tx) => tx.updateGeneration(id, { status: statuses[(i + round) % 3]! })),
      ),
    );
  }
  await a.transaction((tx) => tx.updateGeneration(ids[0]!, { status: 'completed' }));
  await a.deleteGeneration(ids[0]!);
  const { rows: counted } = await a.pool.query(
    'SELECT status, count(*)::int AS n FROM generations WHERE deleted_at IS NULL GROUP BY status',
  );
  for (const status of [...statuses, 'pending'] as const) {
    const expected = counted.find((r) => r.status === status)?.n ?? 0;
    t.is((await b.listGenerations(account.id, { status, limit: 1, offset: 0 })).total, expected, status);
  }
  t.is((await b.listGenerations(account.id, { limit: 1, offset: 0 })).total, 23);
});

test('migration 9 counts the storage of the tracks a database already has', async (t) => {
  const url = await freshDatabase(t);
  const repository = await open(t, url);
  const account = await repository.createAccount({ plan: 'developer' });
  await repository.createGeneration(request(account.id, 1), { monthlyQuota: null });
  await repository.createGeneration(
    {
      ...request(account.id, 2),
      duration: 60,
      stems: true,
      encoding: { sample_rate: 48000, bit_depth: 24, bitrate: null },
    },
    { monthlyQuota: null },
  );
  const expected =
    storageBytesOf({ duration: 30 }) +
    storageBytesOf({ duration: 60, stems: true, encoding: { sample_rate: 48000, bit_depth: 24, bitrate: null } });
  t.is(await repository.storageUsed(account.id), expected);
  // The database as it was before migration 9, with its history.
  await repository.pool.query(`
    DROP TRIGGER account_storage_keep ON generations; DROP FUNCTION account_storage_keep();
    DROP FUNCTION generation_storage_of(generations); DROP TABLE account_storage;
    DROP FUNCTION track_storage_bytes(float8, jsonb, boolean, jsonb, jsonb); DELETE FROM schema_migrations WHERE version = 9`);
  t.deepEqual(await migrate(repository.pool), [9]);
  t.is(await repository.storageUsed(account.id), expected);
});
