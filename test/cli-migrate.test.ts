/** `tunesmith migrate --to postgres://…`: a data dir made by the app, copied into a real PostgreSQL and read back there. */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../src/cli.ts';
import { loadSigningSecret } from '../src/secrets.ts';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import type { Repository } from '../src/store/repository.ts';
import { startApp } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';
import { freshDatabase } from './helpers/postgres.ts';

async function cli(args: string[], dataDir: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    out: (text) => {
      out += `${text}\n`;
    },
    err: (text) => {
      err += `${text}\n`;
    },
    env: { TUNESMITH_DATA_DIR: dataDir },
  });
  return { code, out, err };
}

/** Everything the service reads, through the Repository interface: what must come out the same on the other side. */
async function snapshot(repository: Repository) {
  const accounts = await repository.listAccounts();
  const perAccount = await Promise.all(
    accounts.map(async (account) => ({
      generations: await repository.listGenerations(account.id, { limit: 100, offset: 0 }),
      usage: await repository.usage(account.id, '2026-03'),
      credential: await repository.credentials.forAccount(account.id),
      endpoints: await repository.webhooks.listEndpoints(account.id),
      secret: await repository.webhooks.getSecret(account.id),
      deliveries: await repository.webhooks.listDeliveries(account.id, { limit: 100, offset: 0 }),
    })),
  );
  return {
    accounts,
    keys: await repository.listKeys(),
    perAccount,
    pending: await repository.webhooks.pendingDeliveries(),
    unfinished: await repository.unfinishedGenerations(),
  };
}

/** A data dir with a bit of everything, made through the API and the dashboard; closed, as migrate wants it. */
async function madeByTheApp(t: import('ava').ExecutionContext) {
  const app = await startApp(t, { backend: 'files' });
  await loadSigningSecret(app.dataDir);
  const { key } = await app.account('developer');
  const starter = await app.account('starter');
  await app.call(key, '/v1/webhooks', { json: { url: 'http://127.0.0.1:9/hook' } });
  await app.call(key, '/v1/webhooks/secret');
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await app.call(key, '/v1/generate', {
      json: { prompt: `track ${i}`, duration: 30, bpm: 90 + i },
      headers: { 'Idempotency-Key': `idem-${i}` },
    });
    ids.push((await res.json()).id);
  }
  await app.call(starter.key, '/v1/generate', { json: { prompt: 'starter track' } });
  await app.jobs.complete(ids[0]!);
  await app.jobs.complete(ids[1]!);
  await app.jobs.fail(ids[2]!);
  t.is((await app.call(key, `/v1/generation/${ids[1]}`, { method: 'DELETE' })).status, 204);
  const dana = new DashboardClient(app.url);
  t.is((await dana.signUp('dana@example.com')).status, 303);
  // The delivery worker stops first: the snapshot must be what the data dir holds when migrate reads it.
  await app.webhooks!.close();
  const before = await snapshot(app.store);
  await app.store.close();
  return { app, key, ids, before, dana };
}

test('migrate copies a data dir into an empty database, says what it copied, and the repository reads it all back', async (t) => {
  const { app, key, ids, before } = await madeByTheApp(t);
  const url = await freshDatabase(t);
  const { code, out, err } = await cli(['migrate', '--to', url], app.dataDir);
  t.is(code, 0, err);
  t.regex(out, /3 account\(s\), 2 API key\(s\), 1 dashboard sign-in\(s\), 1 dashboard session\(s\)/);
  t.regex(out, /5 generation\(s\) \(1 of them deleted/);
  t.regex(out, /1 webhook endpoint\(s\), 1 signing secret\(s\), 3 event\(s\), 3 deliveries/);
  t.regex(out, /the download-signing key/);

  const repository = await openPostgresRepository({ url });
  t.teardown(() => repository.close());
  t.deepEqual(await snapshot(repository), before);
  t.truthy(await repository.findKey(key), 'the key works on the database');
  t.is(
    await repository.sharedSecret('signing-key', () => 'new'),
    (await readFile(join(app.dataDir, 'signing.key'), 'utf8')).trim(),
  );
  // The idempotency key of a copied generation still replays it; the deleted generation's unit stays spent.
  const account = before.accounts.find((a) => a.plan === 'developer')!;
  const replay = await repository.createGeneration(
    {
      account_id: account.id,
      prompt: 'x',
      duration: 30,
      style: null,
      instrumental: true,
      seed: 1,
      lyrics: null,
      callback_url: null,
    },
    {
      monthlyQuota: null,
      now: new Date('2026-03-15T13:00:00.000Z'),
      idempotency: {
        key: 'idem-3',
        bodyHash: (await readGenerationFile(app.dataDir, account.id, ids[3]!)).idempotency.bodyHash,
      },
    },
  );
  t.true(replay.replayed);
  t.is(replay.generation.id, ids[3]!);
});

test('someone signed in to the dashboard before migrate is still signed in on a node using the database', async (t) => {
  const { app, dana } = await madeByTheApp(t);
  const url = await freshDatabase(t);
  t.is((await cli(['migrate', '--to', url], app.dataDir)).code, 0);
  const node = await startApp(t, { databaseUrl: url });
  const after = new DashboardClient(node.url);
  for (const [name, value] of dana.cookies) after.cookies.set(name, value);
  const overview = await after.get('/');
  t.is(overview.status, 200);
  t.true(overview.text.includes('dana@example.com'), "the overview is dana's");
  // Without the cookie the same page asks to sign in: the 200 above is the copied session's.
  t.is((await new DashboardClient(node.url).get('/')).status, 302);
});

test('migrate refuses a database that is not empty, says why, and changes nothing there', async (t) => {
  const { app } = await madeByTheApp(t);
  const url = await freshDatabase(t);
  const other = await openPostgresRepository({ url });
  t.teardown(() => other.close());
  await other.createAccount({ plan: 'starter', email: 'someone@example.com' });
  const { code, err } = await cli(['migrate', '--to', url], app.dataDir);
  t.is(code, 1);
  t.regex(
    err,
    /The database is not empty \(it holds 1 row\(s\) in accounts\): migrate copies only into an empty database/,
  );
  t.deepEqual(
    (await other.listAccounts()).map((a) => a.email),
    ['someone@example.com'],
  );
});

test('migrate without --to, or with something else than a PostgreSQL URL, is a usage error', async (t) => {
  t.is((await cli(['migrate'], '/nonexistent')).code, 2);
  const wrong = await cli(['migrate', '--to', 'mysql://host/db'], '/nonexistent');
  t.is(wrong.code, 2);
  t.regex(wrong.err, /--to expects a PostgreSQL URL/);
});

async function readGenerationFile(dataDir: string, accountId: string, id: string) {
  return JSON.parse(await readFile(join(dataDir, 'generations', accountId, `${id}.json`), 'utf8'));
}

test('migrate to a database nobody serves says so in one sentence, without the password', async (t) => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-migrate-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const { code, err } = await cli(['migrate', '--to', 'postgres://tunesmith:hunter2@127.0.0.1:1/tunesmith'], dataDir);
  t.is(code, 1);
  t.regex(err, /^Cannot use the PostgreSQL database tunesmith on 127\.0\.0\.1:1: nothing accepts connections there\./);
  t.false(err.includes('hunter2'));
});
