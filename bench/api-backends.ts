/**
 * npm run bench:api -- --backend postgres — GET /v1/generation/:id and GET /v1/generations on PostgreSQL beside
 * the file store, in one run: the same app, the same account and the same HISTORY (100k) seeded generations on
 * each side, alternating rounds (BENCH_ROUNDS × BENCH_SECONDS per side, medians). The PostgreSQL side runs as an
 * API node does: every read goes to the database, and the rate limit is counted there (one statement per request).
 * The database is BENCH_DATABASE_URL (an empty one), or else a throwaway cluster like the tests' (fsync off, which
 * only writes would feel).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import { checkRequest, listStyles } from '../engine/index.ts';
import { createApp } from '../src/app.ts';
import { PostgresLimiter } from '../src/store/postgres/rate-limit.ts';
import { ACCOUNT_WINDOW_MS } from '../src/domain/token-bucket.ts';
import type { BlobStore, Repository } from '../src/store/index.ts';
import { FileBlobStore } from '../src/store/file-blob-store.ts';
import { openPostgresRepository, type PostgresRepository } from '../src/store/postgres/index.ts';
import { seedGenerationsInPostgres } from '../src/store/postgres/seed.ts';
import { admin, postgresServer } from '../test/helpers/postgres.ts';
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

interface Side {
  name: 'files' | 'postgres';
  url: string;
  key: string;
  completedId: string;
  close(): Promise<void>;
}

async function startSide(
  name: Side['name'],
  repository: Repository,
  blobs: BlobStore,
  key: string,
  completedId: string,
  extra: { accountLimiter?: PostgresLimiter } = {},
): Promise<Side> {
  const api = await listen();
  const app = createApp({
    repository,
    blobs,
    jobs: nonRenderingQueue(),
    engine: { listStyles, checkRequest },
    config: {
      port: 0,
      host: '127.0.0.1',
      dataDir: '/nonexistent',
      publicUrl: api.url,
      workers: 1,
      downloadTtlSeconds: 86_400,
      signingSecret: 'bench',
    },
    ...extra,
  });
  api.server.on('request', app.callback());
  return { name, url: api.url, key, completedId, close: async () => void api.server.close() };
}

export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, drop: async () => undefined };
  const server = await postgresServer();
  const name = `bench_${process.pid}`;
  await admin(server, `CREATE DATABASE ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:${server.port}/${name}`,
    drop: () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function preparePostgres(
  url: string,
  audioDir: string,
): Promise<{ repository: PostgresRepository; blobs: BlobStore; key: string; completedId: string }> {
  const repository = await openPostgresRepository({ url, poolSize: 10 });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'bench' });
  await repository.updateAccount(account.id, { rpm: 100_000_000 });
  const { key } = await repository.createKey(account.id, 'bench');
  const started = Date.now();
  await seedGenerationsInPostgres(repository.pool, account.id, HISTORY);
  console.log(`seeded ${HISTORY} generations in PostgreSQL in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const blobs = new FileBlobStore({ root: audioDir, realRoot: realpathSync(audioDir) });
  const [newest] = (await repository.listGenerations(account.id, { limit: 1, offset: 0 })).items;
  const files = { wav: `audio/${account.id}/${newest!.id}.wav`, midi: `audio/${account.id}/${newest!.id}.mid` };
  await blobs.put(files.wav, new Uint8Array(44), { contentType: 'audio/wav' });
  await blobs.put(files.midi, new Uint8Array(14), { contentType: 'audio/midi' });
  await repository.transaction((tx) => tx.updateGeneration(newest!.id, { files, title: 'Bench Track' }));
  return { repository, blobs, key, completedId: newest!.id };
}

export async function compareBackends(): Promise<void> {
  const autocannon = await loadAutocannon();
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-'));
  const audioDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-pg-'));
  const database = await emptyDatabase();
  const file = await prepareStore(dataDir);
  const postgres = await preparePostgres(database.url, audioDir);
  const sides = [
    await startSide('files', file.store, file.store.blobs, file.key, file.completedId),
    await startSide('postgres', postgres.repository, postgres.blobs, postgres.key, postgres.completedId, {
      accountLimiter: new PostgresLimiter(postgres.repository.pool, ACCOUNT_WINDOW_MS),
    }),
  ];

  const cases = [
    { route: 'GET /v1/generation/:id', path: (side: Side) => `/v1/generation/${side.completedId}` },
    { route: `GET /v1/generations (${HISTORY / 1000}k history)`, path: () => '/v1/generations' },
    {
      route: 'GET /v1/generations?status=completed&offset=5000',
      path: () => '/v1/generations?status=completed&offset=5000',
    },
  ];
  const rows: { route: string; files: Measured; postgres: Measured }[] = [];
  for (const c of cases) {
    const runs: Record<Side['name'], Measured[]> = { files: [], postgres: [] };
    const options = (side: Side) => ({
      url: side.url + c.path(side),
      connections: CONNECTIONS,
      workers: 1,
      headers: { Authorization: `Bearer ${side.key}` },
    });
    for (const side of sides) {
      const sample = await fetch(options(side).url, { headers: options(side).headers });
      if (sample.status !== 200) throw new Error(`${side.name} ${c.route}: ${sample.status} ${await sample.text()}`);
      await autocannon({ ...options(side), duration: 2 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides)
        runs[side.name].push(await measure(() => autocannon({ ...options(side), duration: SECONDS })));
    }
    rows.push({ route: c.route, files: median(runs.files), postgres: median(runs.postgres) });
    console.log(`measured ${c.route}`);
  }

  const header = [
    'route',
    'files req/s',
    'files p50 ms',
    'files p99 ms',
    'pg req/s',
    'pg p50 ms',
    'pg p99 ms',
    'pg/files',
    'pg cpu µs/req',
    'errors',
  ];
  const lines = rows.map((r) => [
    r.route,
    r.files.requests.average.toFixed(0),
    r.files.latency.p50.toFixed(1),
    r.files.latency.p99.toFixed(1),
    r.postgres.requests.average.toFixed(0),
    r.postgres.latency.p50.toFixed(1),
    r.postgres.latency.p99.toFixed(1),
    `${((r.postgres.requests.average / r.files.requests.average) * 100).toFixed(0)}%`,
    r.postgres.cpuPerRequest.toFixed(0),
    String(
      r.files.non2xx + r.files.errors + r.files.timeouts + r.postgres.non2xx + r.postgres.errors + r.postgres.timeouts,
    ),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(
    `\n${CONNECTIONS} connections, median of ${ROUNDS} alternating ${SECONDS} s rounds per side (PostgreSQL: ${HISTORY} generations, pool of 10; the server process also runs the load generator)\n`,
  );
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log("(pg cpu µs/req counts this process only: the PostgreSQL server's own CPU is not in it)");

  for (const side of sides) await side.close();
  await file.store.close();
  await postgres.repository.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(audioDir, { recursive: true, force: true });
}
