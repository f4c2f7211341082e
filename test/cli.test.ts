import test from 'ava';
import { openStore } from '../src/store/index.ts';
import { serveAdmin } from '../src/cli/admin-channel.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, runScript, tempDataDir } from './helpers/process.ts';

const envFor = (dataDir: string) => ({ TUNESMITH_DATA_DIR: dataDir });

test('keys create --json prints one line with the key, its id and the account id', async (t) => {
  const dataDir = await tempDataDir(t);
  const result = await runCli(
    ['keys', 'create', '--plan', 'starter', '--email', 'dev@example.com', '--json'],
    envFor(dataDir),
  );
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  t.is(lines.length, 1);
  const created = JSON.parse(lines[0]!) as Record<string, string>;
  t.deepEqual(Object.keys(created).sort(), ['account_id', 'key', 'key_id']);
  t.regex(created.key!, /^ts_live_/);

  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  t.is((await store.findKey(created.key!))?.id, created.key_id);
  t.like(await store.getAccount(created.account_id!), { plan: 'starter', email: 'dev@example.com' });
});

test('keys list shows prefixes and plans but never a key', async (t) => {
  const dataDir = await tempDataDir(t);
  const created = JSON.parse(
    (await runCli(['keys', 'create', '--plan', 'developer', '--json'], envFor(dataDir))).stdout,
  ) as Record<string, string>;
  const listed = await runCli(['keys', 'list'], envFor(dataDir));
  t.is(listed.code, 0);
  t.true(listed.stdout.includes(created.key_id!));
  t.true(listed.stdout.includes(created.key!.slice(0, 12)));
  t.true(listed.stdout.includes('developer'));
  t.false(listed.stdout.includes(created.key!));
});

test('keys revoke marks the key revoked', async (t) => {
  const dataDir = await tempDataDir(t);
  const created = JSON.parse(
    (await runCli(['keys', 'create', '--plan', 'developer', '--json'], envFor(dataDir))).stdout,
  ) as Record<string, string>;
  const revoked = await runCli(['keys', 'revoke', created.key_id!], envFor(dataDir));
  t.is(revoked.code, 0, revoked.stderr);
  const rows = JSON.parse((await runCli(['keys', 'list', '--json'], envFor(dataDir))).stdout) as {
    key_id: string;
    revoked_at: string | null;
  }[];
  t.truthy(rows.find((row) => row.key_id === created.key_id)?.revoked_at);
});

test('accounts set-plan moves an account to Enterprise with custom figures', async (t) => {
  const dataDir = await tempDataDir(t);
  const created = JSON.parse(
    (await runCli(['keys', 'create', '--plan', 'starter', '--json'], envFor(dataDir))).stdout,
  ) as Record<string, string>;
  const result = await runCli(
    ['accounts', 'set-plan', created.account_id!, 'enterprise', '--rpm', '1200', '--monthly', '5000'],
    envFor(dataDir),
  );
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /enterprise plan: 5000 generations\/month, 1200 requests\/min/);
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  t.like(await store.getAccount(created.account_id!), { plan: 'enterprise', rpm: 1200, monthly: 5000 });
});

test('custom figures on a plan other than Enterprise are a usage error', async (t) => {
  const dataDir = await tempDataDir(t);
  const result = await runCli(['accounts', 'set-plan', 'acct_x', 'starter', '--rpm', '100'], envFor(dataDir));
  t.is(result.code, 2);
  t.regex(result.stderr, /Enterprise/);
});

test('an unknown account id exits 1 with a message naming it', async (t) => {
  const dataDir = await tempDataDir(t);
  await runCli(['keys', 'create', '--plan', 'starter'], envFor(dataDir));
  const result = await runCli(['accounts', 'set-plan', 'acct_missing', 'developer'], envFor(dataDir));
  t.is(result.code, 1);
  t.regex(result.stderr, /acct_missing/);
});

for (const [args, pattern] of [
  [['frobnicate'], /Unknown command "frobnicate"/],
  [['keys', 'rotate'], /Unknown command "keys rotate"/],
  [['keys', 'create', '--plan', 'developer', '--colour', 'blue'], /Unknown option '--colour'/],
  [['keys', 'create', '--plan', 'gold'], /Unknown plan "gold"/],
  [['keys', 'create'], /--plan/],
  [['keys', 'revoke'], /Missing KEY_ID/],
  [['accounts', 'set-plan', 'acct_1', 'enterprise', '--rpm', 'fast'], /--rpm expects a whole number/],
  [['worker', '--accounts', ','], /--accounts takes account ids/],
] as const) {
  test(`"${args.join(' ')}" is a usage error (exit 2)`, async (t) => {
    const result = await runCli([...args], envFor(await tempDataDir(t)));
    t.is(result.code, 2);
    t.regex(result.stderr, pattern);
  });
}

test('--help describes each command and exits 0', async (t) => {
  const env = envFor(await tempDataDir(t));
  const top = await runCli(['--help'], env);
  t.is(top.code, 0);
  for (const name of ['serve', 'keys create', 'keys list', 'keys revoke', 'accounts set-plan'])
    t.true(top.stdout.includes(name));
  const create = await runCli(['keys', 'create', '--help'], env);
  t.is(create.code, 0);
  t.regex(create.stdout, /--plan/);
});

test('"help" lists the commands and "help COMMAND" shows its options, naming the command that works from a checkout', async (t) => {
  const env = envFor(await tempDataDir(t));
  const top = await runCli(['help'], env);
  t.is(top.code, 0, top.stderr);
  t.regex(top.stdout, /^Usage: npm run cli -- <command> \[options\]/);
  t.regex(top.stdout, /keys list/);
  const list = await runCli(['help', 'keys', 'list'], env);
  t.is(list.code, 0, list.stderr);
  t.regex(list.stdout, /^Usage: npm run cli -- keys list \[--json\]/);
  const unknown = await runCli(['frobnicate'], env);
  t.regex(unknown.stderr, /Run "npm run cli -- help" to see the commands/);
});

test('installed, the messages name the command "tunesmith"', async (t) => {
  const bin = fileURLToPath(new URL('../bin/tunesmith.js', import.meta.url));
  const result = await runScript(bin, ['help'], envFor(await tempDataDir(t)));
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /^Usage: tunesmith <command> \[options\]/);
});

test("keys list on a data dir no server has used says where it looked and how to point at the server's, creating nothing", async (t) => {
  const dataDir = join(await tempDataDir(t), 'data');
  const result = await runCli(['keys', 'list'], envFor(dataDir));
  t.is(result.code, 1);
  t.is(result.stdout, '');
  t.true(result.stderr.startsWith(`No Tunesmith data in ${dataDir}: no server has used it`), result.stderr);
  t.regex(result.stderr, /TUNESMITH_DATA_DIR=\/path\/to\/its\/data npm run cli -- keys list/);
  t.false(existsSync(dataDir));
});

test('the first key made in a data dir says it started one there', async (t) => {
  const dataDir = join(await tempDataDir(t), 'data');
  const result = await runCli(['keys', 'create', '--plan', 'starter', '--json'], envFor(dataDir));
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, new RegExp(`started a new data dir at ${dataDir}`));
  const again = await runCli(['keys', 'create', '--plan', 'starter', '--json'], envFor(dataDir));
  t.is(again.stderr, '');
});

test('tunesmith worker without a database exits 1 with one line saying what to set', async (t) => {
  const result = await runCli(['worker'], { ...envFor(await tempDataDir(t)), TUNESMITH_DATABASE_URL: '' });
  t.is(result.code, 1);
  t.regex(result.stderr, /^TUNESMITH_DATABASE_URL: a worker takes its tasks from PostgreSQL: set it to .*\n$/);
});

test('a bad configuration value exits 1 naming the variable', async (t) => {
  const result = await runCli(['keys', 'list'], { ...envFor(await tempDataDir(t)), TUNESMITH_WORKERS: 'many' });
  t.is(result.code, 1);
  t.regex(result.stderr, /TUNESMITH_WORKERS.*1 to 64/);
});

test('parallel CLI runs on one data dir all succeed without losing a write', async (t) => {
  const dataDir = await tempDataDir(t);
  const results = await Promise.all(
    Array.from({ length: 4 }, () => runCli(['keys', 'create', '--plan', 'developer', '--json'], envFor(dataDir))),
  );
  t.deepEqual(
    results.map((result) => result.code),
    [0, 0, 0, 0],
  );
  const rows = JSON.parse((await runCli(['keys', 'list', '--json'], envFor(dataDir))).stdout) as unknown[];
  t.is(rows.length, 4);
});

test('while a server owns the data dir, key commands go through its admin channel', async (t) => {
  const dataDir = await tempDataDir(t);
  // This test process plays the server: it holds the lock and answers on the admin socket.
  const store = await openStore({ dataDir, owner: 'server' });
  t.teardown(() => store.close());
  const admin = await serveAdmin({ repository: store, publicUrl: 'http://127.0.0.1:3000' }, dataDir);
  t.teardown(() => admin.close());

  const result = await runCli(['keys', 'create', '--plan', 'enterprise', '--json'], envFor(dataDir));
  t.is(result.code, 0, result.stderr);
  const created = JSON.parse(result.stdout) as Record<string, string>;
  // The running store saw the write at once: no second writer touched the files underneath it.
  t.is((await store.findKey(created.key!))?.account_id, created.account_id);

  const revoked = await runCli(['keys', 'revoke', created.key_id!], envFor(dataDir));
  t.is(revoked.code, 0, revoked.stderr);
  t.truthy((await store.findKey(created.key!))?.revoked_at);
});
