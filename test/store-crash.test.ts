import test from 'ava';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/index.ts';
import { CoalescingWriter } from '../src/store/atomic-file.ts';
import { tempDataDir } from './helpers/process.ts';

const storeModule = fileURLToPath(new URL('../src/store/index.ts', import.meta.url));

/** A child that writes to the store as fast as it can and says when it has acknowledged writes. */
const writerScript = `
const { openStore } = await import(${JSON.stringify(storeModule)});
const store = await openStore({ dataDir: process.env.DATA_DIR });
const account = await store.createAccount({ plan: 'enterprise' });
let acknowledged = 0;
for (;;) {
  const { generation } = await store.createGeneration(
    { account_id: account.id, prompt: 'p'.repeat(500), duration: 30, style: null, instrumental: true, seed: acknowledged, lyrics: null, callback_url: null },
    { monthlyQuota: null },
  );
  await Promise.all([store.transaction((tx) => tx.updateGeneration(generation.id, { status: 'completed', title: 't'.repeat(300) })), store.createKey(account.id)]);
  acknowledged++;
  process.stdout.write(acknowledged + '\\n');
}
`;

test('kill -9 during a stream of writes leaves every file whole and every acknowledged write in place', async (t) => {
  const dataDir = await tempDataDir(t);
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writerScript], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let acknowledged = 0;
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      acknowledged = Number(chunk.toString().trim().split('\n').at(-1));
      if (acknowledged >= 60) {
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  await new Promise((resolve) => child.on('exit', resolve));

  const warnings: string[] = [];
  const store = await openStore({ dataDir, warn: (message) => warnings.push(message) });
  t.teardown(() => store.close());
  t.deepEqual(warnings, []);
  const account = (await store.listAccounts())[0]!;
  t.true((await store.listGenerations(account.id, { limit: 1, offset: 0 })).total >= acknowledged);
  t.true((await store.listGenerations(account.id, { status: 'completed', limit: 1, offset: 0 })).total >= acknowledged);
  t.true((await store.listKeys()).length >= acknowledged);
  const files = [join(dataDir, 'accounts.json')];
  for (const name of await readdir(join(dataDir, 'generations', account.id)))
    files.push(join(dataDir, 'generations', account.id, name));
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    t.notThrows(() => JSON.parse(text), file);
  }
});

test('bursts of writes to one file coalesce and the last state always lands', async (t) => {
  const dataDir = await tempDataDir(t);
  const writer = new CoalescingWriter();
  const path = join(dataDir, 'state.json');
  let state = 0;
  let snapshots = 0;
  const writes = [];
  for (let i = 1; i <= 100; i++) {
    state = i;
    writes.push(
      writer.write(path, () => {
        snapshots++;
        return JSON.stringify(state);
      }),
    );
    if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(writes);
  t.is(JSON.parse(await readFile(path, 'utf8')), 100);
  t.true(snapshots < 100, `${snapshots} writes for 100 changes`);
});

test('each write of accounts.json keeps the version it replaces as accounts.json.bak', async (t) => {
  const dataDir = await tempDataDir(t);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const account = await store.createAccount({ plan: 'developer' });
  const before = await readFile(join(dataDir, 'accounts.json'), 'utf8');
  await store.createKey(account.id);
  t.is(await readFile(join(dataDir, 'accounts.json.bak'), 'utf8'), before);
  t.is((JSON.parse(await readFile(join(dataDir, 'accounts.json'), 'utf8')) as { keys: unknown[] }).keys.length, 1);
});
