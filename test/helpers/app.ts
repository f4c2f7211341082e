/**
 * The real app over a real store in a temp dir, on an ephemeral port, with a hand-driven clock, the real
 * webhooks module, and a job queue that renders nothing until a test tells it to complete a task (then it
 * stores a small real WAV and MIDI and saves the transition through the generation lifecycle, as the render
 * queue does). The webhook tests
 * swap in the real job queue and real time (test/helpers/webhooks.ts).
 */
import { request as httpRequest, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tonejsMidi from '@tonejs/midi';
import type { ExecutionContext } from 'ava';
import type Koa from 'koa';
import wavefile from 'wavefile';
import { checkRequest, listStyles, type FileEncoder, type StyleInfo } from '../../engine/index.ts';
import { createApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { createHttpServer, type HttpTimeouts } from '../../src/http/http-server.ts';
import { DownloadSigner } from '../../src/domain/download-links.ts';
import type { AppState } from '../../src/http/types.ts';
import { liveOneByOne, type JobQueue, type LiveState } from '../../src/jobs/types.ts';
import type { Logger } from '../../src/log.ts';
import { GenerationLifecycle } from '../../src/domain/generations/lifecycle.ts';
import type { OpenFile } from '../../src/store/atomic-file.ts';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { mkdirSync, realpathSync } from 'node:fs';
import { PostgresLimiter } from '../../src/store/postgres/rate-limit.ts';
import { ACCOUNT_WINDOW_MS, type RequestLimiter } from '../../src/domain/token-bucket.ts';
import { FileBlobStore } from '../../src/store/file-blob-store.ts';
import { openStore } from '../../src/store/index.ts';
import { openPostgresRepository } from '../../src/store/postgres/index.ts';
import { freshDatabase } from './postgres.ts';
import type { Repository } from '../../src/store/repository.ts';
import type { Account, Generation, PlanName } from '../../src/domain/model.ts';
import { openWebhooks, type Webhooks, type WebhooksOptions } from '../../src/domain/webhooks/index.ts';
import type { Json } from './json.ts';

/** A clock tests move by hand. */
export class ManualClock {
  readonly #base: () => number;
  #offset = 0;
  /** `start`: the instant it stands still at until moved, or a time source it runs with (Date.now: real time). */
  constructor(start: number | (() => number) = Date.parse('2026-03-15T12:00:00.000Z')) {
    this.#base = typeof start === 'number' ? () => start : start;
  }
  now = (): Date => new Date(this.#base() + this.#offset);
  advance(ms: number): void {
    this.#offset += ms;
  }
  set(iso: string): void {
    this.#offset = Date.parse(iso) - this.#base();
  }
}

/** A JobQueue that holds tasks in order and finishes them only when asked. */
export class FakeJobQueue implements JobQueue {
  readonly queued: Generation[] = [];
  up = true;
  #deps: QueueDeps | undefined;
  #clock: () => Date;

  constructor(clock: () => Date) {
    this.#clock = clock;
  }

  attach(deps: QueueDeps): void {
    this.#deps = deps;
  }

  enqueue(generation: Generation): void {
    this.queued.push(generation);
  }

  live(id: string): LiveState | undefined {
    const index = this.queued.findIndex((g) => g.id === id);
    if (index === -1) return undefined;
    return { queue_position: index, progress: index === 0 ? 0.25 : 0, estimated_time: 12 * (index + 1) };
  }

  liveMany(generations: readonly Generation[]): Promise<Map<string, LiveState>> {
    return liveOneByOne(this, generations);
  }

  healthy(): boolean {
    return this.up;
  }

  async close(): Promise<void> {
    this.up = false;
  }

  /**
   * Writes a one-second 440 Hz WAV and a one-note MIDI file and marks the task completed (`metadata` adds to what it
   * reports; `laterFormats` lists the MP3, Opus and FLAC as made on first download, as the render queue does).
   */
  async complete(
    id: string,
    title = 'Rainy Night Lo-Fi',
    metadata: Record<string, unknown> = {},
    laterFormats = false,
  ): Promise<Generation> {
    const { blobs, lifecycle } = this.#take(id);
    const generation = this.queued.splice(
      this.queued.findIndex((g) => g.id === id),
      1,
    )[0]!;
    const base = `audio/${generation.account_id}/${id}`;
    const files = {
      wav: `${base}.wav`,
      midi: `${base}.mid`,
      ...(laterFormats ? { mp3: `${base}.mp3`, opus: `${base}.opus`, flac: `${base}.flac` } : {}),
    };
    await blobs.put(files.wav, sineWav(), { contentType: 'audio/wav' });
    await blobs.put(files.midi, oneNoteMidi(), { contentType: 'audio/midi' });
    const at = this.#clock().toISOString();
    return lifecycle.transition(id, {
      status: 'completed',
      started_at: at,
      completed_at: at,
      title,
      files,
      metadata: {
        genre: 'lofi',
        bpm: 80,
        key: 'C',
        mode: 'minor',
        meter: '4/4',
        instruments: ['rhodes'],
        sections: [],
        vocals: false,
        trace: [],
        ...metadata,
      },
    });
  }

  /** A cancel, as the real queue saves it: failed with code "cancelled". */
  async cancel(generation: Generation): Promise<Generation> {
    const { lifecycle } = this.#take(generation.id);
    this.queued.splice(
      this.queued.findIndex((g) => g.id === generation.id),
      1,
    );
    return lifecycle.transition(generation.id, {
      status: 'failed',
      completed_at: this.#clock().toISOString(),
      error: { code: 'cancelled', message: 'The generation was cancelled.' },
    });
  }

  async fail(id: string): Promise<Generation> {
    const { lifecycle } = this.#take(id);
    this.queued.splice(
      this.queued.findIndex((g) => g.id === id),
      1,
    );
    return lifecycle.transition(id, {
      status: 'failed',
      completed_at: this.#clock().toISOString(),
      error: { code: 'render_failed', message: 'The render failed three times.' },
    });
  }

  #take(id: string): QueueDeps {
    if (!this.#deps) throw new Error('FakeJobQueue not attached to a store');
    if (!this.queued.some((g) => g.id === id)) throw new Error(`task ${id} is not queued`);
    return this.#deps;
  }
}

/** What a job queue works with: the records, the audio, and the lifecycle its transitions go through. */
export interface QueueDeps {
  repository: Repository;
  blobs: BlobStore;
  lifecycle: GenerationLifecycle;
}

export function sineWav(seconds = 1, sampleRate = 8000): Uint8Array {
  const samples = new Int16Array(seconds * sampleRate);
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
  const wav = new wavefile.WaveFile();
  wav.fromScratch(1, sampleRate, '16', samples);
  return wav.toBuffer();
}

function oneNoteMidi(): Uint8Array {
  const midi = new tonejsMidi.Midi();
  midi.addTrack().addNote({ midi: 60, time: 0, duration: 0.5 });
  return midi.toArray();
}

/** Which Repository the app runs on: the data dir's files, or a real PostgreSQL (test/helpers/postgres.ts). */
export type Backend = 'files' | 'postgres';
export const BACKENDS: readonly Backend[] = ['files', 'postgres'];

let defaultBackend: Backend = 'files';
/**
 * The backend of every startApp() in this test process that names none: a suite file runs on PostgreSQL when
 * a file under test/postgres/ sets this before importing it (ava runs each file in its own process).
 */
export function useBackend(backend: Backend): void {
  defaultBackend = backend;
}
export const currentBackend = (): Backend => defaultBackend;

/** The records, with the audio (`blobs`) and the dir the audio is in (the data dir, for the files backend). */
export type TestStore = Repository & { readonly blobs: BlobStore; readonly dataDir: string };

export interface TestApp<J extends JobQueue = FakeJobQueue> {
  url: string;
  backend: Backend;
  /** The repository (records) and, as `store.blobs`, the blob store (audio). */
  store: TestStore;
  /** What the app was given as its repository (`store`, or the wrapper of `wrapStore`). */
  repository: Repository;
  lifecycle: GenerationLifecycle;
  jobs: J;
  clock: ManualClock;
  /** The webhooks module the app was built with (null with `webhooks: false`). */
  webhooks: Webhooks | null;
  server: Server;
  koa: Koa<AppState>;
  dataDir: string;
  /** An account with one key; `overrides` sets Enterprise's custom figures. */
  account(
    plan?: PlanName,
    overrides?: { rpm?: number | null; monthly?: number | null },
  ): Promise<{ account: Account; key: string }>;
  /** fetch against the app with the key as Bearer. */
  call(key: string | null, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

/** The webhooks module's seams; sending to loopback is allowed (the tests' receivers listen there). */
export type TestWebhooksOptions = Partial<Omit<WebhooksOptions, 'repository'>>;

/** Makes the job queue over the store, as server.ts does. */
export type JobsFactory<J extends JobQueue> = (deps: QueueDeps) => Promise<J>;

export interface StartOptions {
  styles?: StyleInfo[];
  /** Replace the repository with a wrapper (to inject faults). */
  wrapStore?: (store: Repository) => Repository;
  /** How the store opens the files it writes (a full disk: see full-disk.ts). */
  open?: OpenFile;
  downloadTtlSeconds?: number;
  /** The store's and the app's clock. @default one standing still at 2026-03-15 12:00 UTC */
  clock?: ManualClock;
  /** Seams for the webhooks module, or false for an app built without it (its routes and callback_url answer 503). */
  webhooks?: TestWebhooksOptions | false;
  /** The app's request log. @default none */
  logger?: Logger;
  /** The shutdown signal the app is given, as server.ts gives it. */
  shutdown?: AbortSignal;
  /** The server's request and idle limits. @default those of createHttpServer */
  timeouts?: HttpTimeouts;
  /** @default the process's (useBackend), files unless set */
  backend?: Backend;
  /** The PostgreSQL database to use (two apps on one database: two API nodes). @default a fresh one */
  databaseUrl?: string;
  /** TUNESMITH_MAX_TASKS_PER_ACCOUNT. @default no bound (the fake queue finishes nothing by itself) */
  maxTasksPerAccount?: number;
  /** TUNESMITH_DISK_BUDGET_GB, in bytes. @default no budget */
  diskBudgetBytes?: number;
  /** What makes MP3, Opus and FLAC on first download. @default none (a format not stored is not found) */
  encoder?: Pick<FileEncoder, 'encode'>;
}

const SIGNING_SECRET = 'test-secret-0123456789abcdef';

export function startApp<J extends JobQueue>(
  t: ExecutionContext,
  options: StartOptions & { jobs: JobsFactory<J> },
): Promise<TestApp<J>>;
export function startApp(t: ExecutionContext, options?: StartOptions): Promise<TestApp>;
export async function startApp(
  t: ExecutionContext,
  options: StartOptions & { jobs?: JobsFactory<JobQueue> } = {},
): Promise<TestApp<JobQueue>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-api-'));
  const clock = options.clock ?? new ManualClock();
  const backend = options.backend ?? (options.databaseUrl ? 'postgres' : defaultBackend);
  const { store: realStore, accountLimiter } = await openTestStore(t, backend, dataDir, clock, options);
  const store = options.wrapStore ? options.wrapStore(realStore) : realStore;
  // Before the job queue, as in server.ts: the queue's transitions wake its delivery worker.
  const webhooks =
    options.webhooks === false
      ? null
      : openWebhooks({
          repository: store,
          allowPrivate: true,
          schedule: [40, 40, 40, 40],
          jitter: 0,
          ...options.webhooks,
        });
  // Events are dated by the webhooks' clock, as their deliveries are scheduled by it.
  const eventClock = (options.webhooks !== false ? options.webhooks?.now : undefined) ?? clock.now;
  const lifecycle = new GenerationLifecycle({
    repository: store,
    now: eventClock,
    ...(webhooks ? { onEvent: webhooks.wake } : {}),
  });
  const queueDeps: QueueDeps = { repository: store, blobs: realStore.blobs, lifecycle };
  const jobs = options.jobs ? await options.jobs(queueDeps) : fakeJobQueue(queueDeps, clock);

  // Keep-alive as in production (test/http-keep-alive.test.ts holds it): tests reuse connections as clients do.
  const server = createHttpServer(options.timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    publicUrl: url,
    workers: 1,
    downloadTtlSeconds: options.downloadTtlSeconds ?? 24 * 3600,
    signingSecret: SIGNING_SECRET,
    ...(options.maxTasksPerAccount !== undefined ? { maxTasksPerAccount: options.maxTasksPerAccount } : {}),
    ...(options.diskBudgetBytes !== undefined ? { diskBudgetBytes: options.diskBudgetBytes } : {}),
  };
  const signer = new DownloadSigner({ secret: SIGNING_SECRET, publicUrl: url, ttlSeconds: config.downloadTtlSeconds });
  const app = createApp({
    repository: store,
    blobs: realStore.blobs,
    jobs,
    engine: { listStyles: () => options.styles ?? listStyles(), checkRequest },
    config,
    now: clock.now,
    signer,
    ...(webhooks ? { webhooks: webhooks.service } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.shutdown ? { shutdown: options.shutdown } : {}),
    ...(accountLimiter ? { accountLimiter } : {}),
    ...(options.encoder ? { encoder: options.encoder } : {}),
  });
  app.silent = true;
  server.on('request', app.callback());
  webhooks?.start(signer);

  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await jobs.close();
    await webhooks?.close();
    await realStore.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  return {
    url,
    backend,
    store: realStore,
    repository: store,
    lifecycle,
    jobs,
    clock,
    webhooks,
    server,
    koa: app,
    dataDir,
    async account(plan = 'developer', overrides = {}) {
      let account = await store.createAccount({ plan, email: `${plan}@example.com` });
      if (overrides.rpm !== undefined || overrides.monthly !== undefined)
        account = await store.updateAccount(account.id, overrides);
      const { key } = await store.createKey(account.id, 'test');
      return { account, key };
    },
    call(key, path, init = {}) {
      const { json, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (key !== null) merged.set('Authorization', `Bearer ${key}`);
      if (json !== undefined) merged.set('Content-Type', 'application/json');
      return fetch(url + path, {
        ...rest,
        headers: merged,
        ...(json === undefined ? {} : { body: JSON.stringify(json), method: rest.method ?? 'POST' }),
      });
    },
  };
}

/** The files: the data dir's store. PostgreSQL: the repository on a database, the audio in the temp dir, the shared limiter. */
async function openTestStore(
  t: ExecutionContext,
  backend: Backend,
  dataDir: string,
  clock: ManualClock,
  options: StartOptions,
): Promise<{ store: TestStore; accountLimiter?: RequestLimiter }> {
  if (backend === 'files') return { store: await openStore({ dataDir, clock: clock.now, open: options.open }) };
  const url = options.databaseUrl ?? (await freshDatabase(t));
  const repository = await openPostgresRepository({ url, clock: clock.now, poolSize: 4 });
  mkdirSync(dataDir, { recursive: true });
  const blobs = new FileBlobStore({ root: dataDir, realRoot: realpathSync(dataDir), open: options.open });
  // The repository itself, given the two things tests reach through `store`: the audio and the dir it is in.
  const store = Object.assign(repository, { blobs, dataDir });
  return { store, accountLimiter: new PostgresLimiter(repository.pool, ACCOUNT_WINDOW_MS) };
}

function fakeJobQueue(deps: QueueDeps, clock: ManualClock): FakeJobQueue {
  const jobs = new FakeJobQueue(clock.now);
  jobs.attach(deps);
  return jobs;
}

/** The error object of a response, after checking the one error shape. */
export async function errorOf(
  res: Response,
): Promise<{ type: string; code: string; message: string; param?: string; [k: string]: unknown }> {
  const body = (await res.json()) as { error?: { type: string; code: string; message: string; param?: string } };
  if (
    !body.error ||
    typeof body.error.type !== 'string' ||
    typeof body.error.code !== 'string' ||
    typeof body.error.message !== 'string'
  ) {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  return body.error;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): Json;
}

/** A request exactly as written: no URL normalisation, any header, any bytes. */
export function rawRequest(
  baseUrl: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string | number | string[]>;
    body?: Uint8Array | string;
  },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
