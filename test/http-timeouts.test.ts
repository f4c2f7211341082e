/** Stalled clients do not hold sockets: a body must arrive in time, and a connection moving no bytes is closed. */
import { connect, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import test from 'ava';
import { join } from 'node:path';
import { eventually } from './helpers/process.ts';
import { startApp } from './helpers/app.ts';

/** Short limits, so the tests take seconds; the defaults are 30 s each. */
const timeouts = { requestTimeoutSeconds: 1, idleTimeoutSeconds: 1 };

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function received(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
  });
}

const connections = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

test('a body that stops arriving is answered 408 request_timeout and the connection is closed', async (t) => {
  const app = await startApp(t, { timeouts });
  const { key } = await app.account();
  const socket = await open(app.url);
  const answer = received(socket);
  // Half the body, then nothing: the stalled upload of issue 13.
  socket.write(
    `POST /v1/generate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"prompt": "lo`,
  );
  const text = await answer;
  t.regex(text, /^HTTP\/1\.1 408/);
  t.is(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code, 'request_timeout');
});

test('a download the client stops reading is closed after the idle limit', async (t) => {
  const app = await startApp(t, { timeouts });
  const { key, account } = await app.account();
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  await app.jobs.complete(id);
  // Larger than the socket buffers on both sides, so the server's writes stall.
  await writeFile(join(app.store.dataDir, `audio/${account.id}/${id}.wav`), Buffer.alloc(64 * 1024 * 1024));
  const wav = new URL((await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls.wav);
  const socket = await open(app.url);
  t.teardown(() => socket.destroy());
  socket.pause();
  socket.write(`GET ${wav.pathname}${wav.search} HTTP/1.1\r\nHost: x\r\n\r\n`);
  await eventually(
    async () => ((await connections(app.server)) === 0 ? true : undefined),
    10_000,
    'the stalled download to be closed',
    100,
  );
  t.pass();
});

test('a long poll that waits longer than the idle limit is still answered', async (t) => {
  const app = await startApp(t, { timeouts });
  const { key } = await app.account();
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  const res = await app.call(key, `/v1/generation/${id}?wait=2`);
  t.is(res.status, 200);
  t.is((await res.json()).status, 'processing');
});

test('a kept-alive connection left quiet after its request is closed after the idle limit', async (t) => {
  const app = await startApp(t, { timeouts });
  const socket = await open(app.url);
  const answer = received(socket);
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  t.regex(await answer, /^HTTP\/1\.1 200[\s\S]*"status":"ok"/);
});
