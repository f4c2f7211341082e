/**
 * npm run bench:api — throughput and p99 latency of the API routes, each beside a bare Koa handler
 * answering the same JSON, measured in the same run on the same machine (autocannon, 50 connections).
 *
 * The app runs in this process over a real store in a temp dir: one Enterprise account seeded with
 * 100,000 generations, its rate limit raised out of the way, and a job queue that accepts tasks but
 * renders nothing (rendering is engine work, measured by bench:engine).
 * Targets: GET routes at >= 50% of the bare handler's requests/s, with p99 < 25 ms.
 * The bare handler answers the same JSON the route answers (see bareHandler).
 * Each route is measured in BENCH_ROUNDS (3) alternating rounds of BENCH_SECONDS (5) per side, medians reported; BENCH_ONLY=<text> runs the routes containing it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { checkRequest, listStyles } from '../engine/index.ts';
import { createApp } from '../src/app.ts';
import {
  CONNECTIONS,
  HISTORY,
  ROUNDS,
  SECONDS,
  listen,
  loadAutocannon,
  measure,
  median,
  nonRenderingQueue,
  prepareStore,
  type Measured,
} from './api-common.ts';

/**
 * A Koa app with nothing in it but a handler that answers `status` and a constant copy of the API's
 * JSON answer, which Koa serializes per request just as it does the API's: the difference between the
 * two is then routing, auth, rate limiting, the store and presentation.
 */
function bareHandler(status: number, body: unknown) {
  const bare = new Koa();
  bare.use(async (ctx) => {
    ctx.status = status;
    ctx.body = body;
  });
  return bare.callback();
}

interface Row {
  route: string;
  api: Measured;
  bare: Measured;
  target: boolean;
}

async function main(): Promise<void> {
  const autocannon = await loadAutocannon();
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-'));
  const { store, key, completedId } = await prepareStore(dataDir);
  const api = await listen();
  const app = createApp({
    repository: store,
    blobs: store.blobs,
    jobs: nonRenderingQueue(),
    engine: { listStyles, checkRequest },
    config: {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      publicUrl: api.url,
      workers: 1,
      downloadTtlSeconds: 86_400,
      signingSecret: 'bench',
    },
  });
  api.server.on('request', app.callback());

  const auth = { Authorization: `Bearer ${key}` };
  const postBody = JSON.stringify({
    prompt: 'a calm lofi beat for a rainy night',
    duration: 60,
    style: 'lofi',
    instrumental: true,
  });
  const cases = [
    {
      route: 'GET /v1/generation/:id',
      method: 'GET',
      path: `/v1/generation/${completedId}`,
      headers: auth,
      target: true,
    },
    {
      route: `GET /v1/generations (${HISTORY / 1000}k history)`,
      method: 'GET',
      path: '/v1/generations',
      headers: auth,
      target: true,
    },
    {
      route: 'POST /v1/generate',
      method: 'POST',
      path: '/v1/generate',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: postBody,
      target: false,
    },
  ];

  const only = process.env.BENCH_ONLY;
  const rows: Row[] = [];
  for (const c of cases.filter((c) => !only || c.route.includes(only))) {
    const sample = await fetch(api.url + c.path, {
      method: c.method,
      headers: c.headers,
      ...(c.body ? { body: c.body } : {}),
    });
    if (sample.status >= 400) throw new Error(`${c.route}: ${sample.status} ${await sample.text()}`);
    const bare = await listen(bareHandler(sample.status, await sample.json()));
    // The load generator runs in its own thread so it does not compete with the server for this event loop.
    const options = {
      connections: CONNECTIONS,
      duration: SECONDS,
      workers: 1,
      method: c.method,
      headers: c.headers,
      ...(c.body ? { body: c.body } : {}),
    };
    // A short unmeasured run each first, so JIT warm-up and the heap settling after the load are not counted.
    await autocannon({ url: bare.url + c.path, ...options, duration: 1 });
    await autocannon({ url: api.url + c.path, ...options, duration: 2 });
    // Alternating rounds, median of each: the machine's background load then hits both sides alike.
    const bareRuns: Measured[] = [];
    const apiRuns: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await measure(() => autocannon({ url: bare.url + c.path, ...options })));
      apiRuns.push(await measure(() => autocannon({ url: api.url + c.path, ...options })));
    }
    bare.server.close();
    rows.push({ route: c.route, api: median(apiRuns), bare: median(bareRuns), target: c.target });
    console.log(`measured ${c.route}`);
  }

  printTable(rows);
  api.server.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
}

function printTable(rows: Row[]): void {
  const header = [
    'route',
    'api req/s',
    'api p50 ms',
    'api p99 ms',
    'api cpu µs/req',
    'api gc µs/req',
    'bare req/s',
    'bare p99 ms',
    'bare cpu µs/req',
    'bare gc µs/req',
    'api/bare',
    'errors',
    'target',
  ];
  const lines = rows.map((r) => {
    const ratio = r.api.requests.average / r.bare.requests.average;
    const failures = r.api.non2xx + r.api.errors + r.api.timeouts;
    const verdict = r.target ? (ratio >= 0.5 && r.api.latency.p99 < 25 && failures === 0 ? 'met' : 'MISSED') : '-';
    return [
      r.route,
      r.api.requests.average.toFixed(0),
      r.api.latency.p50.toFixed(1),
      r.api.latency.p99.toFixed(1),
      r.api.cpuPerRequest.toFixed(0),
      r.api.gcPerRequest.toFixed(0),
      r.bare.requests.average.toFixed(0),
      r.bare.latency.p99.toFixed(1),
      r.bare.cpuPerRequest.toFixed(0),
      r.bare.gcPerRequest.toFixed(0),
      `${(ratio * 100).toFixed(0)}%`,
      String(failures),
      verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(
    `\n${CONNECTIONS} connections, median of ${ROUNDS} alternating ${SECONDS} s rounds per side; target for GETs: >= 50% of bare req/s and p99 < 25 ms\n`,
  );
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

// --backend postgres: the same GET routes on PostgreSQL beside the file store (bench/api-backends.ts).
const backend = process.argv.indexOf('--backend');
if (backend === -1) await main();
else if (process.argv[backend + 1] === 'postgres') await (await import('./api-backends.ts')).compareBackends();
else
  throw new Error(
    '--backend takes "postgres": it compares PostgreSQL with the file store (without it, the API is measured against a bare handler).',
  );
