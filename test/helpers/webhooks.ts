/**
 * For the webhook tests: a real local receiver that records what it gets and answers as told, and the
 * real app over a real store, the real job queue (over a stand-in pool that "renders" a small real WAV
 * at once) and the real webhooks module with a short retry schedule.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { checkLyrics, listStyles, type RenderedTrack } from '../../engine/index.ts';
import { createApp } from '../../src/app.ts';
import { DownloadSigner } from '../../src/http/signing.ts';
import type { Config } from '../../src/config.ts';
import { createJobQueue, type JobQueueHandle, type RenderPoolLike } from '../../src/jobs/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { Account, PlanName, Store } from '../../src/store/types.ts';
import { openWebhooks, type Webhooks, type WebhooksOptions } from '../../src/webhooks/index.ts';
import { sineWav } from './app.ts';
import { eventually } from './process.ts';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, any> };
  /** What the receiver answered (null while it hangs). */
  answered: number | null;
}

/** How the receiver answers the n-th request (from 0): a status, or 'hang' to never answer. */
export type Answer = (n: number, received: Received) => number | 'hang';

export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests held open by 'hang' that have not been closed by the client. */
  open(): number;
  answer: Answer;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
}

export async function startReceiver(t: ExecutionContext, answer: Answer = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const hanging = new Set<ServerResponse>();
  let waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const received: Received = { headers: req.headers, body, json: JSON.parse(body), answered: null };
      const n = requests.length;
      requests.push(received);
      const decision = receiver.answer(n, received);
      if (decision === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      } else {
        received.answered = decision;
        res.writeHead(decision, { 'content-type': 'text/plain' }).end(decision < 300 ? 'ok' : 'nope');
      }
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    answer,
    open: () => [...hanging].filter((res) => !res.destroyed && !res.writableEnded).length,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100).unref();
        });
      }
      return requests.slice(0, count);
    },
  };
  return receiver;
}

/** The README's verification recipe, copied as a receiver would copy it. */
export function verifyWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string, toleranceSeconds = 300): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false; // stale or replayed
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** A pool that "renders" a one-second sine WAV at once; the prompt "fail" fails the render. */
function instantPool(): RenderPoolLike {
  return {
    size: 2,
    healthy: () => true,
    async render(request) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (request.prompt === 'fail') throw Object.assign(new Error('The engine could not render this.'), { name: 'RenderFailedError' });
      const track: RenderedTrack = {
        wav: sineWav(),
        midi: new Uint8Array([0x4d, 0x54, 0x68, 0x64]),
        title: `Track for ${request.prompt}`,
        metadata: { genre: 'lofi', bpm: 80, key: 'C', mode: 'minor', meter: '4/4', instruments: [], sections: [], vocals: false, lyrics: null, lyrics_timing: null, trace: [] } as unknown as RenderedTrack['metadata'],
        seed: request.seed ?? 1,
        audioSeconds: request.duration,
        renderMs: 5,
      };
      return track;
    },
  };
}

export interface WebhookApp {
  url: string;
  store: Store;
  jobs: JobQueueHandle;
  webhooks: Webhooks;
  account(plan?: PlanName): Promise<{ account: Account; key: string }>;
  call(key: string, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export type WebhookAppOptions = Partial<Omit<WebhooksOptions, 'store'>>;

export async function startWebhookApp(t: ExecutionContext, options: WebhookAppOptions = {}): Promise<WebhookApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-webhooks-'));
  const store = await openStore({ dataDir });
  const signingSecret = 'test-secret-0123456789abcdef';
  const webhooks = await openWebhooks({
    store,
    allowPrivate: true,
    schedule: [40, 40, 40, 40],
    jitter: 0,
    timeoutMs: 10_000,
    ...options,
  });
  const jobs = await createJobQueue({ store, pool: instantPool(), onTransition: webhooks.record });
  const server = createServer();
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: Config = { port: 0, host: '127.0.0.1', dataDir, publicUrl: url, workers: 1, downloadTtlSeconds: 3600, signingSecret, webhookAllowPrivate: options.allowPrivate ?? true };
  const signer = new DownloadSigner({ secret: signingSecret, publicUrl: url, ttlSeconds: config.downloadTtlSeconds });
  const app = createApp({ store, jobs, engine: { listStyles, checkLyrics }, config, webhooks: webhooks.service, signer });
  app.silent = true;
  server.on('request', app.callback());
  webhooks.start(signer);

  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await jobs.close();
    await webhooks.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  return {
    url,
    store,
    jobs,
    webhooks,
    async account(plan = 'developer') {
      const account = await store.createAccount({ plan, email: `${plan}@example.com` });
      const { key } = await store.createKey(account.id, 'test');
      return { account, key };
    },
    call(key, path, init = {}) {
      const { json, headers, ...rest } = init;
      const merged = new Headers(headers);
      merged.set('Authorization', `Bearer ${key}`);
      if (json !== undefined) merged.set('Content-Type', 'application/json');
      return fetch(url + path, { ...rest, headers: merged, ...(json === undefined ? {} : { body: JSON.stringify(json), method: rest.method ?? 'POST' }) });
    },
  };
}

/** Polls until `check` returns a value (for state the worker reaches asynchronously), every 25 ms. */
export function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  return eventually(check, timeoutMs, what, 25);
}
