/** The request log: one line per request, nothing secret in it, and a cut-off download as one debug line. */
import test from 'ava';
import { request as httpRequest } from 'node:http';
import { captureLogger, LEVELS, type LogLine } from './helpers/log.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { eventually } from './helpers/process.ts';

async function loggedApp(t: Parameters<typeof startApp>[0]) {
  const { logger, lines } = captureLogger('debug');
  const app = await startApp(t, { logger });
  /** The request line of a request id, once the response is over. */
  const lineOf = (reqId: string): Promise<LogLine> =>
    eventually(
      () => lines.find((line) => line.msg === 'request' && line.req_id === reqId),
      5_000,
      `the request line of ${reqId}`,
      10,
    );
  return { app, lines, lineOf };
}

async function completed(app: TestApp, key: string): Promise<{ id: string; wav: string }> {
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  await app.jobs.complete(id);
  return { id, wav: (await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls.wav };
}

test('a request logs one line with its method, path, status, duration, request id and account', async (t) => {
  const { app, lines, lineOf } = await loggedApp(t);
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/account?x=1');
  const line = await lineOf(res.headers.get('x-request-id')!);
  t.like(line, { level: LEVELS.info, method: 'GET', path: '/v1/account', status: 200, account_id: account.id });
  t.is(typeof line.duration_ms, 'number');
  t.is(lines.filter((entry) => entry.req_id === line.req_id).length, 1);
});

test('the API key never reaches the log', async (t) => {
  const { app, lines, lineOf } = await loggedApp(t);
  const { key } = await app.account();
  await lineOf((await app.call(key, '/v1/account')).headers.get('x-request-id')!);
  await lineOf((await app.call(`${key}x`, '/v1/account')).headers.get('x-request-id')!);
  t.false(JSON.stringify(lines).includes(key));
});

test("a download link's signature never reaches the log", async (t) => {
  const { app, lines, lineOf } = await loggedApp(t);
  const { key } = await app.account();
  const { wav } = await completed(app, key);
  const res = await fetch(wav);
  await res.arrayBuffer();
  const line = await lineOf(res.headers.get('x-request-id')!);
  t.regex(line.path, /^\/files\/[^?]+\.wav$/);
  t.false(JSON.stringify(lines).includes(new URL(wav).searchParams.get('sig')!));
});

test('a sign-in link token never reaches the log', async (t) => {
  const { app, lineOf } = await loggedApp(t);
  const res = await fetch(`${app.url}/signin/secret-token-value-123`, { redirect: 'manual' });
  await res.arrayBuffer();
  t.is((await lineOf(res.headers.get('x-request-id')!)).path, '/signin/[redacted]');
});

test('a client that goes away mid-download is one debug line: its request line, marked aborted', async (t) => {
  const { app, lines, lineOf } = await loggedApp(t);
  const { key } = await app.account();
  const { id } = await completed(app, key);
  const generation = (await app.store.getGeneration((await (await app.call(key, '/v1/account')).json()).id, id))!;
  // Larger than any socket buffer, so the server is still writing when the client leaves.
  await app.store.blobs.put(generation.files!.wav!, new Uint8Array(32 * 1024 * 1024), { contentType: 'audio/wav' });
  const wav = (await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls.wav as string;
  const reqId = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(wav, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve(String(res.headers['x-request-id']));
      });
    });
    req.on('error', () => undefined);
    req.once('response', () => undefined).end();
    req.setTimeout(10_000, () => reject(new Error('no answer')));
  });
  t.like(await lineOf(reqId), { level: LEVELS.debug, aborted: true });
  t.is(lines.filter((line) => line.req_id === reqId).length, 1);
  t.false(lines.some((line) => line.level >= LEVELS.warn));
});

/** The store with one method that throws `message`: a fault inside a handler. */
const failing =
  (method: string, message: string) =>
  <S extends object>(store: S): S =>
    new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === method)
          return () => {
            throw new Error(message);
          };
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

test('a fault is logged once, at error level, with its stack, under the request id', async (t) => {
  const { logger, lines } = captureLogger('info');
  const app = await startApp(t, {
    logger,
    wrapStore: failing('listGenerations', 'ENOENT: no such file /secret/path'),
  });
  const { key } = await app.account();
  const reqId = (await app.call(key, '/v1/generations')).headers.get('x-request-id');
  const faults = lines.filter((line) => line.level === LEVELS.error);
  t.is(faults.length, 1);
  t.like(faults[0], { req_id: reqId, msg: 'request failed' });
  t.regex(faults[0]!.err.stack, /ENOENT: no such file \/secret\/path\n\s+at /);
});

test('a fault in a POST whose body was read is logged with its stack under the request id', async (t) => {
  const { logger, lines } = captureLogger('info');
  const app = await startApp(t, {
    logger,
    wrapStore: failing('createGeneration', 'the store broke while saving'),
  });
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'lofi', duration: 30 } });
  t.is(res.status, 500);
  const reqId = res.headers.get('x-request-id');
  const faults = lines.filter((line) => line.level === LEVELS.error);
  t.is(faults.length, 1);
  t.like(faults[0], { req_id: reqId, msg: 'request failed' });
  t.regex(faults[0]!.err.stack, /the store broke while saving\n\s+at /);
});
