/** Bad input from one client never stops the server answering everyone else. */
import { connect } from 'node:net';
import test from 'ava';
import { rawRequest, startApp, type TestApp } from './helpers/app.ts';

function garbage(app: TestApp, key: string): Promise<unknown>[] {
  const auth = { Authorization: `Bearer ${key}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const requests: Promise<unknown>[] = [
    rawRequest(app.url, {
      method: 'POST',
      path: '/v1/generate',
      headers: json,
      body: `{"prompt":${'['.repeat(50_000)}`,
    }),
    rawRequest(app.url, { method: 'POST', path: '/v1/generate', headers: json, body: Buffer.alloc(60_000, 0xff) }),
    rawRequest(app.url, { method: 'POST', path: '/v1/generate', headers: json, body: 'x'.repeat(200_000) }).catch(
      () => undefined,
    ),
    rawRequest(app.url, {
      method: 'POST',
      path: '/v1/generate',
      headers: { ...json, 'Content-Type': 'text/xml' },
      body: '<a/>',
    }),
    rawRequest(app.url, { path: `/v1/generation/${'%00'.repeat(3000)}`, headers: auth }),
    rawRequest(app.url, { path: '/v1/generations?limit=1&limit=2&offset=-1', headers: auth }),
    rawRequest(app.url, { path: '/files/../../../../etc/passwd' }),
    rawRequest(app.url, { path: '/v1/account', headers: { Authorization: 'Bearer \u00ff\u00fe' } }),
  ];
  // A client that sends half a request and vanishes.
  requests.push(
    new Promise<void>((resolve) => {
      const { hostname, port } = new URL(app.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          'POST /v1/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n',
        );
        socket.write(`Authorization: Bearer ${key}\r\n\r\n{"prompt":`);
        setImmediate(() => {
          socket.destroy();
          resolve();
        });
      });
      socket.on('error', () => resolve());
    }),
  );
  return requests;
}

test('good requests in parallel with garbage all succeed, and the garbage gets 4xx', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  const bad = await app.account('enterprise');
  const good = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? app.call(key, '/v1/generate', { json: { prompt: `good ${i}` } })
      : app.call(key, '/v1/generations?limit=5'),
  );
  const [goodResponses, badResponses] = await Promise.all([Promise.all(good), Promise.all(garbage(app, bad.key))]);
  for (const res of goodResponses) t.true(res.status === 202 || res.status === 200, String(res.status));
  for (const res of badResponses) {
    if (res && typeof res === 'object' && 'status' in res)
      t.true((res as { status: number }).status >= 400 && (res as { status: number }).status < 500);
  }
  t.is((await app.call(key, '/v1/generations')).status, 200);
  t.is(app.jobs.queued.length, 10);
});

test('after a burst of garbage the server still answers health checks', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  await Promise.all(garbage(app, key));
  t.is((await fetch(`${app.url}/healthz`)).status, 200);
});
