/**
 * A damaged file in the data dir, met by a real server start: the files it cannot do without stop the
 * start with one sentence naming the file; a damaged generation record is moved aside and the rest starts.
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { seedGenerations } from '../src/store/seed.ts';
import { startServerProcess, tempDataDir, type ServerProcess } from './helpers/process.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

/** A data dir with an account and a key, made the way the CLI makes them. */
async function dataDirWithAccount(t: ExecutionContext): Promise<{ dataDir: string; accountId: string }> {
  const dataDir = await tempDataDir(t);
  const store = await openStore({ dataDir });
  const account = await store.createAccount({ plan: 'developer' });
  await store.createKey(account.id);
  await store.close();
  return { dataDir, accountId: account.id };
}

async function assertRefused(t: ExecutionContext, server: ServerProcess, file: string): Promise<string> {
  t.is(server.url, '', server.output());
  t.is((await server.exited).code, 1);
  const said = server.output().trim();
  t.is(said.split('\n').length, 1, said);
  t.true(said.startsWith(`${file} is damaged (`), said);
  t.notRegex(said, /\bat .+:\d+:\d+/);
  t.is(firstKey(said), '');
  return said;
}

test('accounts.json holding null stops the start instead of a first start, and its .bak brings the accounts back', async (t) => {
  const { dataDir, accountId } = await dataDirWithAccount(t);
  const file = join(dataDir, 'accounts.json');
  await writeFile(file, 'null');
  const said = await assertRefused(t, await startServerProcess(t, dataDir), file);
  t.true(said.includes(`restore it from ${file}.bak`), said);
  t.is(await readFile(file, 'utf8'), 'null');

  await copyFile(`${file}.bak`, file);
  const restored = await startServerProcess(t, dataDir);
  t.truthy(restored.url, restored.output());
  t.is(firstKey(restored.output()), '');
  await restored.kill('SIGTERM');
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  t.truthy(await store.getAccount(accountId));
});

test('accounts.json of the wrong shape stops the start', async (t) => {
  const { dataDir } = await dataDirWithAccount(t);
  const file = join(dataDir, 'accounts.json');
  await writeFile(file, '{"accounts": {}, "keys": []}');
  await assertRefused(t, await startServerProcess(t, dataDir), file);
});

test('a truncated accounts.json stops the start', async (t) => {
  const { dataDir } = await dataDirWithAccount(t);
  const file = join(dataDir, 'accounts.json');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.slice(0, text.length / 2));
  await assertRefused(t, await startServerProcess(t, dataDir), file);
  t.is((await readFile(file, 'utf8')).length, Math.floor(text.length / 2));
});

test('a truncated signing.key stops the start and is never replaced', async (t) => {
  const dataDir = await tempDataDir(t);
  const file = join(dataDir, 'signing.key');
  await writeFile(file, '0123abcd\n');
  const said = await assertRefused(t, await startServerProcess(t, dataDir), file);
  t.true(said.includes('delete it to make a new key'), said);
  t.is(await readFile(file, 'utf8'), '0123abcd\n');
});

test('a truncated webhooks.json stops the start', async (t) => {
  const dataDir = await tempDataDir(t);
  const file = join(dataDir, 'webhooks.json');
  await writeFile(file, '{"endpoints":[{"id":"wh_1","acc');
  await assertRefused(t, await startServerProcess(t, dataDir), file);
});

test('a truncated dashboard.json stops the start', async (t) => {
  const dataDir = await tempDataDir(t);
  const file = join(dataDir, 'dashboard.json');
  await writeFile(file, '{"credentials":[{"account_id":"acc_1","em');
  await assertRefused(t, await startServerProcess(t, dataDir), file);
});

for (const [damage, content] of [
  ['holding null', 'null'],
  ['holding {}', '{}'],
  ['cut short', '{"id":"gen_'],
] as const) {
  test(`a generation file ${damage} is moved to quarantine/ with a warning naming it, and the rest starts`, async (t) => {
    const { dataDir, accountId } = await dataDirWithAccount(t);
    await seedGenerations(dataDir, accountId, 2);
    const dir = join(dataDir, 'generations', accountId);
    await mkdir(dir, { recursive: true });
    const damaged = join(dir, 'gen_damaged.json');
    await writeFile(damaged, content);

    const server = await startServerProcess(t, dataDir);
    t.truthy(server.url, server.output());
    t.true(
      server
        .stdout()
        .includes(
          `Moved the damaged generation file ${damaged} to ${join(dataDir, 'quarantine', accountId, 'gen_damaged.json')}`,
        ),
      server.stdout(),
    );
    t.false(existsSync(damaged));
    t.is(await readFile(join(dataDir, 'quarantine', accountId, 'gen_damaged.json'), 'utf8'), content);
    await server.kill('SIGTERM');

    const store = await openStore({ dataDir });
    t.teardown(() => store.close());
    t.is((await store.listGenerations(accountId, { limit: 10, offset: 0 })).total, 2);
  });
}
