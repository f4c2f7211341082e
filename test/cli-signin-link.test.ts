/**
 * `tunesmith accounts signin-link`: a lost first-start link or a forgotten password is not a locked-out account.
 * The link is made by the running server (over its admin channel) or, with no server, on the data dir itself.
 */
import test from 'ava';
import { runCli, startServerProcess, tempDataDir } from './helpers/process.ts';

const envFor = (dataDir: string) => ({ TUNESMITH_DATA_DIR: dataDir });

interface Link {
  account_id: string;
  url: string;
  expires_at: string;
}

/** Follows a sign-in link on `base` (the link's own origin is the configured public URL): the status and session cookie. */
async function open(
  base: string,
  link: string,
): Promise<{ status: number; location: string | null; session: boolean }> {
  const res = await fetch(base + new URL(link).pathname, { redirect: 'manual' });
  return {
    status: res.status,
    location: res.headers.get('location'),
    session: res.headers.getSetCookie().some((c) => /^ts_session=[^;]+/.test(c)),
  };
}

test('with a server running, the CLI gets a link from it that signs the first-start account in once', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const [row] = JSON.parse((await runCli(['keys', 'list', '--json'], envFor(dataDir))).stdout) as {
    account_id: string;
  }[];
  const result = await runCli(['accounts', 'signin-link', row!.account_id, '--json'], envFor(dataDir));
  t.is(result.code, 0, result.stderr);
  const link = JSON.parse(result.stdout) as Link;
  t.is(link.account_id, row!.account_id);
  t.true(new Date(link.expires_at).getTime() - Date.now() > 6.9 * 24 * 3600 * 1000);
  const first = await open(server.url, link.url);
  t.is(first.status, 303);
  t.true(first.session, 'signed in');
  t.false((await open(server.url, link.url)).session, 'a link works once');
});

test('with no server, the link is written to the data dir and works when the server starts', async (t) => {
  const dataDir = await tempDataDir(t);
  const created = JSON.parse(
    (await runCli(['keys', 'create', '--plan', 'developer', '--json'], envFor(dataDir))).stdout,
  ) as { account_id: string };
  const result = await runCli(['accounts', 'signin-link', created.account_id], envFor(dataDir));
  t.is(result.code, 0, result.stderr);
  const url = /(http:\/\/\S+\/signin\/\S+)/.exec(result.stdout)?.[1];
  t.truthy(url, result.stdout);
  const server = await startServerProcess(t, dataDir);
  const opened = await open(server.url, url!);
  t.is(opened.status, 303);
  t.true(opened.session);
});

test('an unknown account id exits 1 naming it', async (t) => {
  const dataDir = await tempDataDir(t);
  await runCli(['keys', 'create', '--plan', 'starter'], envFor(dataDir));
  const result = await runCli(['accounts', 'signin-link', 'acct_nope'], envFor(dataDir));
  t.is(result.code, 1);
  t.regex(result.stderr, /No account with id acct_nope/);
});

test('with the server stopped, the link points where it was last reached, not at the default port', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const [row] = JSON.parse((await runCli(['keys', 'list', '--json'], envFor(dataDir))).stdout) as {
    account_id: string;
  }[];
  await server.kill('SIGTERM');
  const link = JSON.parse(
    (await runCli(['accounts', 'signin-link', row!.account_id, '--json'], envFor(dataDir))).stdout,
  ) as Link;
  t.is(new URL(link.url).origin, server.url);
});

test('with the server stopped, a URL named in the environment still wins', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const [row] = JSON.parse((await runCli(['keys', 'list', '--json'], envFor(dataDir))).stdout) as {
    account_id: string;
  }[];
  await server.kill('SIGTERM');
  const env = { ...envFor(dataDir), TUNESMITH_PUBLIC_URL: 'https://music.example.com' };
  const link = JSON.parse((await runCli(['accounts', 'signin-link', row!.account_id, '--json'], env)).stdout) as Link;
  t.is(new URL(link.url).origin, 'https://music.example.com');
});
