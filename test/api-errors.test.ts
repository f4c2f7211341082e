/** One error shape everywhere; X-Request-Id on every response; 5xx reveal nothing. */
import { connect } from 'node:net';
import test from 'ava';
import type { Repository as Store } from '../src/store/repository.ts';
import { errorOf, rawRequest, startApp } from './helpers/app.ts';

test('an unknown route is a 404 route_not_found in the error shape', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/nothing/here`);
  t.is(res.status, 404);
  t.truthy(res.headers.get('x-request-id'));
  t.like(await errorOf(res), { type: 'not_found_error', code: 'route_not_found' });
});

test('an unknown /v1 route with a key is a 404 in the error shape', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/songs');
  t.is(res.status, 404);
  t.is((await errorOf(res)).code, 'route_not_found');
});

test('a wrong method is a 405 with Allow, in the error shape', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const [method, path, allow] of [
    ['GET', '/v1/generate', /POST/],
    ['DELETE', '/v1/generations', /GET/],
    ['PUT', '/v1/generation/gen_x', /GET/],
    ['POST', '/healthz', /GET/],
  ] as const) {
    const res = await app.call(key, path, { method });
    t.is(res.status, 405, `${method} ${path}`);
    t.regex(res.headers.get('allow') ?? '', allow);
    t.like(await errorOf(res), { type: 'invalid_request_error', code: 'method_not_allowed' });
  }
});

test('every response carries an X-Request-Id, unique per request', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const ids = new Set<string>();
  for (const res of [
    await fetch(`${app.url}/healthz`),
    await app.call(key, '/v1/styles'),
    await app.call(null, '/v1/styles'),
    await fetch(`${app.url}/x`),
  ]) {
    const id = res.headers.get('x-request-id');
    t.truthy(id);
    ids.add(id!);
  }
  t.is(ids.size, 4);
});

test("a caller's plain X-Request-Id is echoed, an odd one replaced", async (t) => {
  const app = await startApp(t);
  const mine = await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': 'client-trace-0001' } });
  t.is(mine.headers.get('x-request-id'), 'client-trace-0001');
  const odd = await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': 'has spaces and <html>' } });
  t.not(odd.headers.get('x-request-id'), 'has spaces and <html>');
});

function failingStore(store: Store): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'listGenerations') {
        return () => {
          throw new Error(`ENOENT: no such file /secret/path/generations`);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

test('an unexpected fault is a 500 internal_error that leaks no message, stack or path', async (t) => {
  const app = await startApp(t, { wrapStore: failingStore });
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generations');
  t.is(res.status, 500);
  const text = await res.text();
  t.notRegex(text, /secret|ENOENT|tunesmith-api-|at .*\.ts|Error:/);
  const error = JSON.parse(text).error;
  t.like(error, { type: 'api_error', code: 'internal_error' });
  t.truthy(res.headers.get('x-request-id'));
});

test('a 500 is reported on the app error event, with the real error, for the log', async (t) => {
  const app = await startApp(t, { wrapStore: failingStore });
  const { key } = await app.account();
  const seen: Error[] = [];
  app.koa.on('error', (err: Error) => seen.push(err));
  await app.call(key, '/v1/generations');
  t.is(seen.length, 1);
  t.regex(seen[0]!.message, /ENOENT/);
});

test('4xx answers are not reported as faults', async (t) => {
  const app = await startApp(t);
  const seen: Error[] = [];
  app.koa.on('error', (err: Error) => seen.push(err));
  await fetch(`${app.url}/nope`);
  await app.call(null, '/v1/styles');
  t.is(seen.length, 0);
});

test('error responses are JSON and not cached', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/nope`);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.is(res.headers.get('cache-control'), 'no-store');
});

function rawSocket(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

test('a request Node cannot parse still gets the error shape (with the clientError listener)', async (t) => {
  const app = await startApp(t);
  const text = await rawSocket(app.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
  t.regex(text, /^HTTP\/1\.1 400/);
  t.regex(text, /X-Request-Id: req_/);
  t.is(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code, 'malformed_request');
});

test('headers over the size limit are a 431 in the error shape', async (t) => {
  const app = await startApp(t);
  const text = await rawSocket(app.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.regex(text, /^HTTP\/1\.1 431/);
  t.is(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code, 'headers_too_large');
});

test('/v1 answers, successful or not, are marked Cache-Control: no-store', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  t.is((await app.call(key, '/v1/styles')).headers.get('cache-control'), 'no-store');
  t.is((await app.call(null, '/v1/styles')).headers.get('cache-control'), 'no-store');
});

for (const method of ['PROPFIND', 'TRACE', 'MKCOL']) {
  test(`${method} on a known route is a 405 whose Allow and message list the route's methods`, async (t) => {
    const app = await startApp(t);
    const res = await rawRequest(app.url, { method, path: '/healthz' });
    t.is(res.status, 405);
    t.is(res.headers.allow, 'HEAD, GET');
    t.like(res.json().error, {
      code: 'method_not_allowed',
      message: `${method} is not allowed here. Use HEAD or GET.`,
    });
  });
}

test('a method the dashboard does not serve on one of its pages is a 405 listing the methods it does', async (t) => {
  const app = await startApp(t);
  for (const method of ['PROPFIND', 'PUT']) {
    const res = await rawRequest(app.url, { method, path: '/keys' });
    t.is(res.status, 405, method);
    t.is(res.headers.allow, 'HEAD, GET, POST', method);
    t.is(res.json().error.message, `${method} is not allowed here. Use HEAD or GET or POST.`);
  }
});

test('an unknown method on an unknown path is a 404, not a 405 with nothing allowed', async (t) => {
  const app = await startApp(t);
  const res = await rawRequest(app.url, { method: 'PROPFIND', path: '/nothing/here' });
  t.is(res.status, 404);
  t.is(res.json().error.code, 'route_not_found');
});

test('an HTTP/1.1 request without Host is a 400 missing_host in the error shape, with a request id', async (t) => {
  const app = await startApp(t);
  const text = await rawSocket(app.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
  t.regex(text, /^HTTP\/1\.1 400/);
  t.regex(text, /X-Request-Id: req_/i);
  t.is(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code, 'missing_host');
});

test('an Expect other than 100-continue is a 417 expectation_failed in the error shape, with a request id', async (t) => {
  const app = await startApp(t);
  const res = await rawRequest(app.url, { path: '/healthz', headers: { Expect: 'bogus' } });
  t.is(res.status, 417);
  t.regex(String(res.headers['x-request-id']), /^req_/);
  t.like(res.json().error, { type: 'invalid_request_error', code: 'expectation_failed' });
});

test('a CONNECT request is a 405 in the error shape, with a request id, not a silently closed socket', async (t) => {
  const app = await startApp(t);
  const text = await rawSocket(app.url, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
  t.regex(text, /^HTTP\/1\.1 405/);
  t.regex(text, /X-Request-Id: req_/i);
  t.is(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code, 'method_not_allowed');
});
