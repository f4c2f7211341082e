/**
 * node --import tsx scripts/hostile.ts — sends a few hundred hostile requests, by class, to a real server in a temp
 * data dir and prints the statuses each class got. Any 5xx, a dropped connection where an answer was due, an
 * answer not in the error shape, or a server that stops answering /healthz is a finding (exit code 1).
 *
 * The classes follow the adversarial review behind issue 13: malformed bodies and fields, keys, paths and ids,
 * methods, framing and headers, queries, download links, the dashboard's forms, webhook targets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startServer } from '../src/server.ts';
import { openStore } from '../src/store/index.ts';

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

type Outcome = number | 'closed';

const results = new Map<string, Map<Outcome, number>>();
const findings: string[] = [];

function count(kind: string, outcome: Outcome): void {
  const byStatus = results.get(kind) ?? new Map<Outcome, number>();
  byStatus.set(outcome, (byStatus.get(outcome) ?? 0) + 1);
  results.set(kind, byStatus);
}

/** Writes raw bytes and reads the status line: for requests fetch() would refuse to send. */
function raw(port: number, text: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve('closed'));
    // write, not end: a half-closed socket may lose its answer to the close, which is the client's doing, not the server's.
    socket.write(text);
  });
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-hostile-'));
  const seed = await openStore({ dataDir });
  const starter = await seed.createAccount({ plan: 'starter' });
  const developer = await seed.createAccount({ plan: 'developer' });
  await seed.updateAccount(developer.id, { rpm: 1_000_000 });
  const { key } = await seed.createKey(developer.id);
  const { key: starterKey } = await seed.createKey(starter.id);
  await seed.close();
  const config = {
    ...loadConfig({
      TUNESMITH_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      TUNESMITH_WORKERS: '1',
      TUNESMITH_LOG_LEVEL: 'silent',
    }),
  };
  const server = await startServer(config, { logger: createLogger({ level: 'silent' }), print: () => undefined });
  const port = Number(new URL(server.url).port);
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };

  // One real task of the developer's, for id, download and delete probes.
  const own = (await (
    await fetch(`${server.url}/v1/generate`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }),
    })
  ).json()) as { id: string };

  const probes: [kind: string, Probe][] = [];
  const add = (kind: string, probe: Probe) => probes.push([kind, probe]);

  for (const body of [
    '{',
    'null',
    '[]',
    '"text"',
    '42',
    '{"prompt": 5}',
    '{"prompt": ""}',
    `{"prompt": "${'a'.repeat(20_000)}"}`,
    '{"prompt": "x", "duration": 1e308}',
    '{"prompt": "x", "duration": -30}',
    '{"prompt": "x", "duration": "60"}',
    '{"prompt": "x", "style": "../../etc"}',
    '{"prompt": "x", "seed": 1.5}',
    '{"prompt": "x", "__proto__": {"admin": true}}',
    '{"prompt": "x", "constructor": {}}',
    '{"prompt": "x", "lyrics": 7}',
    `{"prompt": "x", "lyrics": "${'la '.repeat(5000)}"}`,
    '{"prompt": "x", "instrumental": "yes"}',
    '{"prompt": "x", "callback_url": "http://169.254.169.254/"}',
    '{"prompt": "x", "callback_url": "http://[::ffff:0:7f00:1]/"}',
    '{"prompt": "\\u0000\\ud800"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '{"prompt": "x", "extra": 1}',
  ]) {
    add('bodies and fields', { method: 'POST', path: '/v1/generate', headers: json, body });
  }
  add('bodies and fields', {
    method: 'POST',
    path: '/v1/generate',
    headers: { ...auth, 'content-type': 'text/plain' },
    body: '{"prompt":"x"}',
  });
  add('bodies and fields', {
    method: 'POST',
    path: '/v1/generate',
    headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: 'not gzip',
  });
  add('bodies and fields', {
    method: 'POST',
    path: '/v1/generate',
    headers: json,
    body: `{"prompt": "${'x'.repeat(2_000_000)}"}`,
  });

  for (const header of [
    '',
    'Bearer',
    'Bearer ',
    'Bearer ts_live_',
    'Bearer ts_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    `Basic ${Buffer.from('a:b').toString('base64')}`,
    `bearer ${key}x`,
    `Bearer ${key} ${key}`,
    "Bearer ' OR 1=1 --",
  ]) {
    for (const path of ['/v1/generations', `/v1/generation/${own.id}`, '/v1/account'])
      add('keys', { method: 'GET', path, headers: header ? { authorization: header } : {} });
  }
  for (const path of ['/v1/webhooks', '/v1/webhooks/secret', '/v1/webhooks/deliveries'])
    add('keys', { method: 'GET', path, headers: { authorization: `Bearer ${starterKey}` } });

  for (const id of [
    '..%2f..%2fetc%2fpasswd',
    '%00',
    `gen_${'a'.repeat(5000)}`,
    '%E2%80%AE',
    '..',
    'gen_x%2F..%2F..%2Faccounts.json',
    encodeURIComponent('<script>'),
    own.id.toUpperCase(),
    `${own.id}%20`,
  ]) {
    add('paths and ids', { method: 'GET', path: `/v1/generation/${id}`, headers: auth });
    add('paths and ids', { method: 'DELETE', path: `/v1/generation/${id}`, headers: auth });
    add('paths and ids', {
      method: 'GET',
      path: `/v1/generation/${own.id}`,
      headers: { authorization: `Bearer ${starterKey}` },
    });
  }
  for (const path of [
    '/',
    '/v2/generate',
    '/v1/',
    '/v1/generate/',
    '//v1/generate',
    '/v1/generate%00',
    '/files/../accounts.json',
    '/files/%2e%2e/accounts.json',
    '/static/../../package.json',
    `/${'a/'.repeat(3000)}`,
  ]) {
    add('paths and ids', { method: 'GET', path, headers: auth });
  }

  for (const method of ['PROPFIND', 'MKCOL', 'OPTIONS', 'PATCH', 'PUT', 'HEAD', 'DELETE']) {
    for (const path of [
      '/v1/generate',
      '/v1/generations',
      `/v1/generation/${own.id}`,
      '/healthz',
      '/nowhere',
      '/dashboard',
    ]) {
      add('methods', { method, path, headers: auth });
    }
  }

  for (const query of [
    'limit=-1',
    'limit=1e9',
    'limit=abc',
    'offset=-5',
    'status=bogus',
    'status=completed&status=failed',
    'expand=everything',
    'wait=61',
    'wait=-1',
    'wait=abc',
    `search=${'x'.repeat(10_000)}`,
    'limit[]=1',
    '%zz=1',
  ]) {
    add('queries', { method: 'GET', path: `/v1/generations?${query}`, headers: auth });
    add('queries', { method: 'GET', path: `/v1/generation/${own.id}?${query}`, headers: auth });
  }

  for (const path of [
    `/files/${own.id}.wav`,
    `/files/${own.id}.wav?expires=1&signature=abc`,
    `/files/${own.id}.wav?expires=99999999999&signature=${'0'.repeat(64)}`,
    '/files/x.wav?expires=abc&signature=',
    `/files/${own.id}.mid?expires=-1&signature=zz`,
  ]) {
    add('download links', { method: 'GET', path });
    add('download links', { method: 'GET', path, headers: { range: 'bytes=999999999-' } });
    add('download links', { method: 'GET', path, headers: { range: 'bytes=5-1,a-b' } });
  }

  for (const path of ['/signin', '/signup', '/signout', '/dashboard/keys', '/dashboard/playground', '/signin/abc']) {
    add('dashboard forms', {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40b.c&password=x&_csrf=bogus',
    });
    add('dashboard forms', {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: `a=${'%'.repeat(100)}`,
    });
    add('dashboard forms', { method: 'GET', path, headers: { cookie: 'ts_session=forged.value; ts_session=x' } });
  }

  for (const url of [
    'http://127.0.0.1/',
    'http://localhost./',
    'http://[::1]/',
    'http://0x7f000001/',
    'http://2130706433/',
    'ftp://example.com/',
    'http://[fe80::1%25eth0]/',
    'http://100.64.0.1/',
    'http://[64:ff9b:1::1]/',
    'javascript:alert(1)',
    'http://a@127.0.0.1/',
    'not a url',
  ]) {
    add('webhook targets', {
      method: 'POST',
      path: '/v1/webhooks',
      headers: json,
      body: JSON.stringify({ url, events: ['generation.completed'] }),
    });
  }

  for (const [kind, probe] of probes) {
    let outcome: Outcome;
    try {
      const response = await fetch(server.url + probe.path, {
        method: probe.method,
        headers: probe.headers ?? {},
        ...(probe.body !== undefined ? { body: probe.body } : {}),
        redirect: 'manual',
      });
      outcome = response.status;
      const text = await response.text();
      if (
        outcome >= 400 &&
        probe.method !== 'HEAD' &&
        response.headers.get('content-type')?.includes('json') &&
        !/"error"\s*:\s*\{/.test(text)
      )
        findings.push(`${probe.method} ${probe.path.slice(0, 80)}: ${outcome} without the error shape`);
    } catch {
      outcome = 'closed';
    }
    count(kind, outcome);
    if (outcome === 'closed' || outcome >= 500) findings.push(`${probe.method} ${probe.path.slice(0, 80)}: ${outcome}`);
  }

  const framing = [
    'GET /healthz HTTP/1.1\r\n\r\n',
    'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n',
    'POST /v1/generate HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
    'POST /v1/generate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
    'POST /v1/generate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
    'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET  HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    'GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n',
    '\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
    // fetch() will not send these methods at all.
    ...['/v1/generate', '/healthz', '/nowhere'].map((path) => `TRACE ${path} HTTP/1.1\r\nHost: x\r\n\r\n`),
    'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
  ];
  for (const text of framing) {
    const outcome = await raw(port, text);
    count('framing and headers', outcome);
    if (outcome === 'closed' || (typeof outcome === 'number' && outcome >= 500))
      findings.push(`raw ${JSON.stringify(text.slice(0, 60))}: ${outcome}`);
  }

  const health = await fetch(`${server.url}/healthz`);
  if (health.status !== 200) findings.push(`/healthz answered ${health.status} after the run`);
  await server.close();
  await rm(dataDir, { recursive: true, force: true });

  let total = 0;
  console.log('class                  sent  statuses');
  for (const [kind, byStatus] of results) {
    const sent = [...byStatus.values()].reduce((a, b) => a + b, 0);
    total += sent;
    const statuses = [...byStatus.entries()]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    console.log(`${kind.padEnd(22)} ${String(sent).padStart(4)}  ${statuses}`);
  }
  console.log(`\n${total} hostile requests; /healthz afterwards: ${health.status}; findings: ${findings.length}`);
  for (const finding of findings) console.log(`  ${finding}`);
  process.exitCode = findings.length > 0 ? 1 : 0;
}

await main();
