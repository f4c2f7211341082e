import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { seedGenerations } from '../src/store/seed.ts';

const HISTORY = 100_000;

test('an account with 100,000 generations lists, filters and creates correctly', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-history-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const setupStore = await openStore({ dataDir });
  const account = await setupStore.createAccount({ plan: 'enterprise' });
  await setupStore.close();
  const newest = new Date('2026-01-31T12:00:00Z');
  await seedGenerations(dataDir, account.id, HISTORY, {
    newest,
    statuses: ['completed', 'completed', 'completed', 'failed'],
  });

  const store = await openStore({ dataDir, clock: () => new Date('2026-02-01T00:00:00Z') });
  t.teardown(() => store.close());

  const firstPage = await store.listGenerations(account.id, { limit: 20, offset: 0 });
  t.is(firstPage.total, HISTORY);
  t.is(firstPage.items[0]?.created_at, newest.toISOString());
  const lastPage = await store.listGenerations(account.id, { limit: 100, offset: HISTORY - 10 });
  t.is(lastPage.items.length, 10);
  t.is((await store.listGenerations(account.id, { status: 'failed', limit: 5, offset: 0 })).total, HISTORY / 4);

  const { generation } = await store.createGeneration(
    {
      account_id: account.id,
      prompt: 'one more',
      duration: 30,
      style: null,
      instrumental: true,
      seed: 1,
      lyrics: null,
      callback_url: null,
    },
    { monthlyQuota: null },
  );
  t.is((await store.listGenerations(account.id, { limit: 1, offset: 0 })).items[0]?.id, generation.id);
  t.is((await store.listGenerations(account.id, { limit: 1, offset: 0 })).total, HISTORY + 1);
  t.is(await store.usage(account.id, '2026-02'), 1);
});
