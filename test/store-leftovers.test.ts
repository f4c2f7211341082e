/** No leftovers: a write the disk cannot take leaves no temp file, and a start sweeps the ones a crash left. */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { fillingDisk } from './helpers/full-disk.ts';

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-leftovers-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const temps = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((name) => name.endsWith('.tmp'));

test('a write the full disk refuses leaves no temp file and the file it would replace whole', async (t) => {
  const dataDir = await tempDir(t);
  let full = false;
  const store = await openStore({ dataDir, open: fillingDisk(() => full) });
  t.teardown(() => store.close());
  const account = await store.createAccount({ plan: 'developer' });
  const before = await readFile(join(dataDir, 'accounts.json'), 'utf8');

  full = true;
  await t.throwsAsync(store.createKey(account.id), { message: /ENOSPC/ });
  await t.throwsAsync(
    store.blobs.put(`audio/${account.id}/gen_1.wav`, new Uint8Array(64), { contentType: 'audio/wav' }),
    { message: /ENOSPC/ },
  );
  t.deepEqual(await temps(dataDir), []);
  t.deepEqual(await readdir(join(dataDir, 'audio', account.id)), []);
  t.is(await readFile(join(dataDir, 'accounts.json'), 'utf8'), before);
});

test('a start sweeps the temp files a crash left in the data dir, generations/ and audio/', async (t) => {
  const dataDir = await tempDir(t);
  const first = await openStore({ dataDir });
  const account = await first.createAccount({ plan: 'developer' });
  await first.blobs.put(`audio/${account.id}/gen_1.wav`, new Uint8Array(8), { contentType: 'audio/wav' });
  await first.close();
  const leftovers = [
    join(dataDir, '.accounts.json.0a1b2c.tmp'),
    join(dataDir, '.accounts.json.bak.0a1b2c.tmp'),
    join(dataDir, 'audio', account.id, '.gen_2.wav.0a1b2c.tmp'),
  ];
  for (const path of leftovers) await writeFile(path, 'partial');

  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  t.deepEqual(await temps(dataDir), []);
  t.deepEqual(await readdir(join(dataDir, 'audio', account.id)), ['gen_1.wav']);
  t.truthy(await store.getAccount(account.id));
});
