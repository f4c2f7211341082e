/** What both API benches share: the settings, autocannon's shape, measuring with CPU and GC per request, and a non-rendering queue. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { createHttpServer } from '../src/http/http-server.ts';
import type { JobQueue } from '../src/jobs/types.ts';
import { openStore, type FileRepository } from '../src/store/index.ts';
import { seedGenerations } from '../src/store/seed.ts';

export const HISTORY = Number(process.env.BENCH_HISTORY ?? 100_000);
export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
export type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  workers?: number;
}) => Promise<AutocannonResult>;

export interface Measured extends AutocannonResult {
  /** Process CPU time (server and load generator threads together) per request, in µs. */
  cpuPerRequest: number;
  /** Garbage-collection pause time of the main thread per request, in µs. */
  gcPerRequest: number;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/**
 * CPU per request is the figure least bent by other work on the machine: the load generator's share
 * is the same on both sides (same requests, same response bytes), so the difference is the API's cost.
 */
export async function measure(run: () => Promise<AutocannonResult>): Promise<Measured> {
  const before = process.cpuUsage();
  const gcBefore = gcMs;
  const result = await run();
  const used = process.cpuUsage(before);
  const requests = Math.max(1, result.requests.total);
  return {
    ...result,
    cpuPerRequest: (used.user + used.system) / requests,
    gcPerRequest: ((gcMs - gcBefore) * 1000) / requests,
  };
}

/** The run with the median throughput (its latency figures come with it, so they stay consistent). */
export function median<T extends AutocannonResult>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.requests.average - b.requests.average);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A queue that takes tasks and never renders them: the bench measures the HTTP path only. */
export function nonRenderingQueue(): JobQueue {
  let queued = 0;
  const live = () => ({ queue_position: queued, progress: 0, estimated_time: 60 });
  return {
    enqueue: () => void queued++,
    live,
    liveMany: async (generations) => new Map(generations.map((g) => [g.id, live()])),
    cancel: async (generation) => generation,
    healthy: () => true,
    close: async () => undefined,
  };
}

/** The API in the service's own HTTP server (its limits and checks included); the bare handler in a plain one. */
export async function listen(handler?: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = handler ? createServer(handler) : createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export const loadAutocannon = async (): Promise<Autocannon> =>
  (await import(String('autocannon'))).default as Autocannon;

/** The file store in `dataDir`: one Enterprise account (rate limit out of the way) with HISTORY seeded generations, the newest completed with files. */
export async function prepareStore(
  dataDir: string,
): Promise<{ store: FileRepository; key: string; accountId: string; completedId: string }> {
  const setup = await openStore({ dataDir });
  const account = await setup.createAccount({ plan: 'enterprise', name: 'bench' });
  await setup.updateAccount(account.id, { rpm: 100_000_000 });
  const { key } = await setup.createKey(account.id, 'bench');
  await setup.close();

  let started = Date.now();
  await seedGenerations(dataDir, account.id, HISTORY);
  console.log(`seeded ${HISTORY} generations in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  const store = await openStore({ dataDir });
  console.log(`store opened (loads the history) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // One completed generation with real files, so GET /v1/generation/:id signs download links.
  const [newest] = (await store.listGenerations(account.id, { limit: 1, offset: 0 })).items;
  const files = { wav: `audio/${account.id}/${newest!.id}.wav`, midi: `audio/${account.id}/${newest!.id}.mid` };
  await store.blobs.put(files.wav, new Uint8Array(44), { contentType: 'audio/wav' });
  await store.blobs.put(files.midi, new Uint8Array(14), { contentType: 'audio/midi' });
  await store.transaction((tx) => tx.updateGeneration(newest!.id, { files, title: 'Bench Track' }));
  return { store, key, accountId: account.id, completedId: newest!.id };
}
