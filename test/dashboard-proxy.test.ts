/** The dashboard behind an HTTPS reverse proxy: the browser's Origin is the public URL, not what the app sees. */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { checkLyrics, listStyles } from '../engine/index.ts';
import { createApp } from '../src/app.ts';
import { openStore } from '../src/store/index.ts';
import { FakeJobQueue, ManualClock } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';

const PUBLIC_URL = 'https://music.example.com/tunesmith';

/** The real app with a public URL other than the address the test reaches it at, as behind a proxy. */
async function startBehindProxy(t: import('ava').ExecutionContext): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-proxy-'));
  const clock = new ManualClock();
  const store = await openStore({ dataDir, clock: clock.now });
  const jobs = new FakeJobQueue(clock.now);
  jobs.attach(store);
  const config = { port: 0, host: '127.0.0.1', dataDir, publicUrl: PUBLIC_URL, workers: 1, downloadTtlSeconds: 3600, signingSecret: 'proxy-test-secret-0123456789' };
  const app = createApp({ store, jobs, engine: { listStyles, checkLyrics }, config, now: clock.now });
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
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a form posted from the configured public origin is accepted, one from another origin refused', async (t) => {
  const url = await startBehindProxy(t);
  const browser = new DashboardClient(url);
  await browser.get('/signup');
  const fields = { email: 'proxied@example.com', password: 'a long enough password' };
  t.is((await browser.post('/signup', fields, { Origin: 'https://evil.example.com' })).status, 403);
  t.is((await browser.post('/signup', fields, { Origin: 'http://music.example.com' })).status, 403, 'the scheme counts');
  const accepted = await browser.post('/signup', fields, { Origin: new URL(PUBLIC_URL).origin });
  t.is(accepted.status, 303);
  t.is((await browser.get('/')).status, 200);
});
