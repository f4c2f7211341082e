/**
 * The dashboard as it is deployed: behind an HTTPS reverse proxy (the browser's Origin is the public URL,
 * not what the app sees) and with the first-start account, which signs in by a one-time link.
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { checkRequest, listStyles } from '../engine/index.ts';
import { createApp } from '../src/app.ts';
import { GenerationLifecycle } from '../src/domain/generations/lifecycle.ts';
import type { CredentialRecords } from '../src/store/repository.ts';
import { openStore, type FileRepository } from '../src/store/index.ts';
import { FakeJobQueue, ManualClock } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';

const PUBLIC_URL = 'https://music.example.com/tunesmith';

interface Deployed {
  url: string;
  store: FileRepository;
  credentials: CredentialRecords;
}

/** The real app, reached at a local address while its configured public URL is PUBLIC_URL, as behind a proxy. */
async function deploy(t: ExecutionContext): Promise<Deployed> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-deployed-'));
  const clock = new ManualClock();
  const store = await openStore({ dataDir, clock: clock.now });
  const credentials = store.credentials;
  const jobs = new FakeJobQueue(clock.now);
  jobs.attach({
    repository: store,
    blobs: store.blobs,
    lifecycle: new GenerationLifecycle({ repository: store, now: clock.now }),
  });
  const config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    publicUrl: PUBLIC_URL,
    workers: 1,
    downloadTtlSeconds: 3600,
    signingSecret: 'deployed-test-secret-0123456789',
  };
  const app = createApp({
    repository: store,
    blobs: store.blobs,
    jobs,
    engine: { listStyles, checkRequest },
    config,
    now: clock.now,
  });
  app.silent = true;
  const server = createServer(app.callback());
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, store, credentials };
}

test('a form posted from the configured public origin is accepted, one from another origin refused', async (t) => {
  const { url } = await deploy(t);
  const browser = new DashboardClient(url);
  await browser.get('/signup');
  const fields = { email: 'proxied@example.com', password: 'a long enough password' };
  t.is((await browser.post('/signup', fields, { Origin: 'https://evil.example.com' })).status, 403);
  t.is(
    (await browser.post('/signup', fields, { Origin: 'http://music.example.com' })).status,
    403,
    'the scheme counts',
  );
  const accepted = await browser.post('/signup', fields, { Origin: new URL(PUBLIC_URL).origin });
  t.is(accepted.status, 303);
  t.is((await browser.get('/')).status, 200);
});

test('the first-start account that sets an email and password is then shown by that email', async (t) => {
  const { url, store, credentials } = await deploy(t);
  const local = await store.createAccount({ plan: 'developer', name: 'local' });
  const token = await credentials.issueSignInToken(local.id, new Date(), 3600_000);
  const browser = new DashboardClient(url);
  t.is((await browser.get(`/signin/${token}`)).status, 303);
  t.regex((await browser.get('/')).text, /class="who" title="local"/);
  const saved = await browser.post('/account/credentials', {
    email: 'Owner@Example.com',
    password: 'the owner password',
  });
  t.is(saved.location, '/?signin=saved');
  t.is((await store.getAccount(local.id))?.email, 'owner@example.com');
  t.regex((await browser.get('/')).text, /class="who" title="owner@example\.com"/);
});

test('the dashboard takes the same email addresses as the CLI, such as one at localhost', async (t) => {
  const { url, store } = await deploy(t);
  t.is((await new DashboardClient(url).signUp('ops@localhost')).status, 303);
  t.is((await store.listAccounts()).filter((a) => a.email === 'ops@localhost').length, 1);
});

test('behind an HTTPS proxy the session cookies are Secure, though the app itself is reached over http', async (t) => {
  const { url } = await deploy(t);
  const browser = new DashboardClient(url);
  const form = await browser.get('/signup');
  t.true(
    form.headers.getSetCookie().every((line) => /;\s*secure/i.test(line)),
    form.headers.getSetCookie().join('\n'),
  );
  const signedUp = await browser.post(
    '/signup',
    { email: 'secure@example.com', password: 'a long enough password' },
    { Origin: new URL(PUBLIC_URL).origin },
  );
  const cookies = signedUp.headers.getSetCookie();
  t.true(cookies.length > 0);
  for (const line of cookies) t.regex(line, /;\s*secure/i);
});
