/**
 * For the webhook tests: a real local receiver that records what it gets and answers as told, and the
 * test app (helpers/app.ts) with the real job queue (over a stand-in pool that "renders" a small real
 * WAV at once) and the real webhooks module with a short retry schedule.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { RenderFailedError, type RenderedTrack } from '../../engine/index.ts';
import { createJobQueue, type JobQueueHandle, type RenderPoolLike } from '../../src/jobs/index.ts';
import type { Webhooks } from '../../src/domain/webhooks/index.ts';
import { ManualClock, sineWav, startApp, type TestApp, type TestWebhooksOptions } from './app.ts';
import { eventually } from './process.ts';
import type { Json } from './json.ts';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  json: { id: string; type: string; created_at: string; data: Json };
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

/** The verification recipe of docs/webhooks.md, copied as a receiver would copy it. */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  toleranceSeconds = 300,
): boolean {
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
      if (request.prompt === 'fail')
        throw new RenderFailedError('RangeError', { cause: new RangeError('The engine could not render this.') });
      const track: RenderedTrack = {
        wav: sineWav(),
        midi: new Uint8Array([0x4d, 0x54, 0x68, 0x64]),
        outputs: {},
        title: `Track for ${request.prompt}`,
        metadata: {
          genre: 'lofi',
          bpm: 80,
          key: 'C',
          mode: 'minor',
          meter: '4/4',
          instruments: [],
          sections: [],
          vocals: false,
          lyrics: null,
          lyrics_timing: null,
          trace: [],
        } as unknown as RenderedTrack['metadata'],
        seed: request.seed ?? 1,
        audioSeconds: request.duration,
        renderMs: 5,
        encodeMs: 0,
      };
      return track;
    },
  };
}

export type WebhookApp = TestApp<JobQueueHandle> & { webhooks: Webhooks };
export type WebhookAppOptions = TestWebhooksOptions;

/** startApp with the real job queue over instantPool(), on real time (the queue and the retry schedule run on it). */
export async function startWebhookApp(t: ExecutionContext, options: WebhookAppOptions = {}): Promise<WebhookApp> {
  const app = await startApp(t, {
    clock: new ManualClock(Date.now),
    webhooks: options,
    jobs: (deps) => createJobQueue({ ...deps, pool: instantPool() }),
  });
  const { webhooks } = app;
  if (!webhooks) throw new Error('startApp built no webhooks module');
  return { ...app, webhooks };
}

/** Polls until `check` returns a value (for state the worker reaches asynchronously), every 25 ms. */
export function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  return eventually(check, timeoutMs, what, 25);
}
