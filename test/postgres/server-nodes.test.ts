/** Real server processes (`tunesmith serve`) with TUNESMITH_DATABASE_URL: two nodes, one database, no data-dir lock. */
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, tempDataDir } from '../helpers/process.ts';
import { freshDatabase } from '../helpers/postgres.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
const signInLink = (output: string): string => /(http:\/\/\S+\/signin\/[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';

test('two nodes starting together on an empty database make one first account, share its key and its dashboard sessions, and take no data-dir lock', async (t) => {
  const env = { TUNESMITH_DATABASE_URL: await freshDatabase(t) };
  const [dirA, dirB] = [await tempDataDir(t), await tempDataDir(t)];
  const [a, b] = await Promise.all([startServerProcess(t, dirA, env), startServerProcess(t, dirB, env)]);
  t.truthy(a.url, a.output());
  t.truthy(b.url, b.output());
  t.regex(a.output(), /Tunesmith listening on \S+ \(PostgreSQL database t\d+_\d+ on 127\.0\.0\.1:\d+, audio in /);
  const keys = [firstKey(a.output()), firstKey(b.output())].filter(Boolean);
  t.is(keys.length, 1, 'exactly one node provisioned the first account');
  const [key] = keys;
  for (const node of [a, b]) {
    const res = await fetch(`${node.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    t.is(res.status, 200);
  }
  t.false(existsSync(join(dirA, 'server.lock')));
  t.false(existsSync(join(dirB, 'server.lock')));

  // Signed in on the node that printed the link; the cookie it set is good on the other (one cookie key in the database).
  const [linkNode, otherNode] = firstKey(a.output()) ? [a, b] : [b, a];
  const signIn = await fetch(signInLink(linkNode.output()), { redirect: 'manual' });
  t.is(signIn.status, 303);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const overview = await fetch(`${otherNode.url}/`, { headers: { cookie }, redirect: 'manual' });
  t.is(overview.status, 200);

  t.deepEqual(await a.kill('SIGTERM'), { code: 0, signal: null });
  t.deepEqual(await b.kill('SIGTERM'), { code: 0, signal: null });
});

test('a node whose database URL points nowhere stops with one sentence naming the database, not the password', async (t) => {
  const server = await startServerProcess(t, await tempDataDir(t), {
    TUNESMITH_DATABASE_URL: 'postgres://tunesmith:hunter2@127.0.0.1:1/tunesmith',
  });
  t.is(server.url, '');
  t.is((await server.exited).code, 1);
  t.true(
    server
      .output()
      .includes('Cannot use the PostgreSQL database tunesmith on 127.0.0.1:1: nothing accepts connections there.'),
    server.output(),
  );
  t.false(server.output().includes('hunter2'));
});

test('with TUNESMITH_DATABASE_URL the CLI makes keys in the database, and a running node accepts them at once', async (t) => {
  const env = { TUNESMITH_DATABASE_URL: await freshDatabase(t) };
  const node = await startServerProcess(t, await tempDataDir(t), env);
  const made = await runCli(['keys', 'create', '--plan', 'starter', '--json'], {
    ...env,
    TUNESMITH_DATA_DIR: await tempDataDir(t),
  });
  t.is(made.code, 0, made.stderr);
  const { key } = JSON.parse(made.stdout) as { key: string };
  const res = await fetch(`${node.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  t.is(res.status, 200);
  t.like(await res.json(), { plan: 'starter' });
});
