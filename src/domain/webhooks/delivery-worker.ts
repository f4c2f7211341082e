/**
 * Sends the pending deliveries the repository holds: each when it is due, a bounded number at a time and
 * never more than a few to one receiver, so a slow receiver holds up only its own deliveries (never the
 * API or the renders, which only record events). A failed attempt is retried on the schedule; an
 * endpoint that has failed for too long is disabled. An event is only ever recorded with the transition
 * it announces (one transaction), so whatever is pending can be sent as soon as it is due.
 */
import { randomBytes } from 'node:crypto';
import type { GenerationObject } from '../generations/present.ts';
import type { Repository } from '../../store/repository.ts';
import type { Generation } from '../model.ts';
import { UnsafeUrlError } from './errors.ts';
import { retryDelay } from './schedule.ts';
import { sendAttempt, type AttemptResult } from './sender.ts';
import { webhookHeaders } from './signature.ts';
import { announcedState, stillTrue } from './transition.ts';
import type { DeliveryState, WebhookDelivery, WebhookEvent } from './types.ts';
import { resolveForSend, type Resolver } from './url-safety.ts';

export interface DeliveryWorkerOptions {
  repository: Repository;
  /** The secrets that sign an account's webhooks now (two during a rotation). */
  secretsOf: (accountId: string) => Promise<string[]>;
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
  schedule: readonly number[];
  jitter: number;
  timeoutMs: number;
  disableAfterMs: number;
  concurrency: number;
  perReceiver: number;
  now: () => Date;
  random: () => number;
  log: (line: string) => void;
  /**
   * How often to look for due deliveries besides the wakes: where other processes record events too (PostgreSQL
   * mode, where a worker process's transitions cause them), this is how their deliveries are found. @default none
   */
  pollMs?: number | undefined;
}

/** A delivery's log keeps this many attempts (a round has at most 11; resends add rounds). */
const MAX_LOGGED_ATTEMPTS = 50;
/** Old settled deliveries are pruned at most this often. */
const PRUNE_EVERY_MS = 3600 * 1000;
/** Timers are re-armed at least this often, so a changed wall clock cannot stall the worker. */
const MAX_SLEEP_MS = 60_000;
/** setTimeout's longest delay (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DeliveryWorker {
  readonly #o: DeliveryWorkerOptions;
  /** This worker's name on the deliveries it leases: every node may run one, and one sends each attempt. */
  readonly #owner = `dw_${randomBytes(12).toString('base64url')}`;
  /** Deliveries being attempted now. */
  readonly #inFlight = new Set<string>();
  /** Attempts in flight per receiver (scheme://host:port). */
  readonly #perReceiver = new Map<string, number>();
  readonly #abort = new AbortController();
  #present: ((generation: Generation) => GenerationObject) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running = new Set<Promise<void>>();
  #closed = false;
  /** A pass is reading the pending deliveries; `#again` asks for one more after it. */
  #ticking = false;
  #again = false;
  #prunedAt = 0;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = options;
  }

  /** Begins sending; `present` turns a task into the body's data (with fresh download links). */
  start(present: (generation: Generation) => GenerationObject): void {
    this.#present = present;
    this.wake();
  }

  /** Looks for due deliveries now (after a new event or a resend). */
  wake(): void {
    if (this.#closed || !this.#present) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), 0);
    this.#timer.unref();
  }

  /** Stops at once: attempts in flight are abandoned and, never logged, are made again at the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#abort.abort();
    await Promise.allSettled([...this.#running]);
  }

  /**
   * One pass over the pending deliveries: starts the due ones there is room for and arms the timer for
   * the earliest not yet due. A due delivery left for want of room needs no timer: the attempt that
   * holds its room ticks again when it ends.
   */
  async #tick(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#closed) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    try {
      await this.#pass();
    } catch (error) {
      this.#o.log(`Webhook deliveries could not be read: ${(error as Error).message}`);
    } finally {
      this.#ticking = false;
    }
    if (this.#again) {
      this.#again = false;
      await this.#tick();
    }
  }

  async #pass(): Promise<void> {
    const now = this.#o.now().getTime();
    if (now - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      await this.#o.repository.webhooks.prune(new Date(now));
    }
    let earliest = Number.POSITIVE_INFINITY;
    // Oldest first: when room is short, the longest waiting go first.
    for (const delivery of await this.#o.repository.webhooks.pendingDeliveries()) {
      if (this.#closed || this.#inFlight.size >= this.#o.concurrency) return;
      if (this.#inFlight.has(delivery.id)) continue;
      const dueAt = this.#dueAt(delivery);
      if (dueAt > now) {
        earliest = Math.min(earliest, dueAt);
        continue;
      }
      const receiver = receiverOf(delivery.url);
      const busy = this.#perReceiver.get(receiver) ?? 0;
      if (busy >= this.#o.perReceiver) continue;
      // Another node may be sending it (or just has): the lease says who sends, the claim re-reads its state.
      const claimed = await this.#o.repository.webhooks.claimDelivery(
        delivery.id,
        this.#owner,
        new Date(now + this.#leaseMs()),
        new Date(now),
      );
      if (!claimed || this.#closed) continue;
      this.#perReceiver.set(receiver, (this.#perReceiver.get(receiver) ?? 0) + 1);
      this.#inFlight.add(delivery.id);
      this.#launch(claimed, receiver);
    }
    this.#arm(earliest, now);
  }

  #launch(delivery: WebhookDelivery, receiver: string): void {
    const run = this.#attempt(delivery).catch((error: unknown) =>
      this.#o.log(`Webhook delivery ${delivery.id}: ${(error as Error).message}`),
    );
    this.#running.add(run);
    void run.finally(() => {
      this.#running.delete(run);
      this.#inFlight.delete(delivery.id);
      const busy = (this.#perReceiver.get(receiver) ?? 1) - 1;
      if (busy > 0) this.#perReceiver.set(receiver, busy);
      else this.#perReceiver.delete(receiver);
      if (!this.#closed) void this.#tick();
    });
  }

  #dueAt(delivery: WebhookDelivery): number {
    return delivery.next_attempt_at === null ? 0 : Date.parse(delivery.next_attempt_at);
  }

  /** Long enough for a whole attempt (connect, send, the receiver's answer) and the write of its result. */
  #leaseMs(): number {
    return 3 * this.#o.timeoutMs + 30_000;
  }

  #arm(earliest: number, now: number): void {
    const poll = this.#o.pollMs ?? Number.POSITIVE_INFINITY;
    if (this.#closed || (earliest === Number.POSITIVE_INFINITY && poll === Number.POSITIVE_INFINITY)) return;
    // A retry due later is looked at again at least each MAX_SLEEP_MS; with nothing pending, the poll alone says
    // when (an hour-long floor poll in PostgreSQL mode is an hour: other nodes' events wake us by notification).
    const sleep =
      earliest === Number.POSITIVE_INFINITY
        ? Math.min(poll, MAX_TIMER_MS)
        : Math.min(MAX_SLEEP_MS, poll, Math.max(0, earliest - now));
    this.#timer = setTimeout(() => void this.#tick(), sleep);
    this.#timer.unref();
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    const records = this.#o.repository.webhooks;
    const event = await records.getEvent(delivery.event_id);
    const current = event && (await this.#o.repository.getGeneration(event.account_id, event.generation_id));
    const endpoint = delivery.endpoint_id === null ? undefined : await records.getEndpoint(delivery.endpoint_id);
    // A deleted task announces nothing (no receiver is sent a link that no longer works), nor one that went on otherwise.
    if (!event || !stillTrue(event, current) || (delivery.endpoint_id !== null && !endpoint)) {
      await records.updateDelivery(delivery.id, settle('cancelled', this.#o.now()));
      return;
    }
    if (endpoint?.disabled_at) {
      await records.updateDelivery(delivery.id, settle('failed', this.#o.now()));
      return;
    }

    const result = await this.#send(delivery, event, announcedState(event, current));
    if (this.#closed) return;
    const at = this.#o.now();
    const attempts = [
      ...delivery.attempts,
      { at: at.toISOString(), status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error },
    ].slice(-MAX_LOGGED_ATTEMPTS);
    const logged = { attempts, round_attempts: delivery.round_attempts + 1 };
    if (result.error === null) {
      await records.updateDelivery(delivery.id, { ...logged, ...settle('delivered', at) });
      if (endpoint?.failing_since) await records.updateEndpoint(endpoint.id, { failing_since: null });
      return;
    }
    const wait = retryDelay(logged.round_attempts, this.#o.schedule, this.#o.jitter, this.#o.random);
    await records.updateDelivery(delivery.id, {
      ...logged,
      ...settle(wait === null ? 'failed' : 'pending', at, wait === null ? null : new Date(at.getTime() + wait)),
    });
    if (endpoint) await this.#endpointFailed(endpoint.id, at);
  }

  /** One attempt, its body presented from `generation`: the task's record in the state the event announces. */
  async #send(delivery: WebhookDelivery, event: WebhookEvent, generation: Generation): Promise<AttemptResult> {
    const started = performance.now();
    try {
      const present = this.#present;
      if (!present) throw new Error('a webhook was sent before the worker was started');
      const body = JSON.stringify({
        id: event.id,
        type: event.type,
        created_at: event.created_at,
        data: present(generation),
      });
      const secrets = await this.#o.secretsOf(delivery.account_id);
      const timestamp = Math.floor(this.#o.now().getTime() / 1000);
      const address = await resolveForSend(delivery.url, {
        allowPrivate: this.#o.allowPrivate,
        resolve: this.#o.resolve,
      });
      return await sendAttempt({
        url: delivery.url,
        address,
        headers: webhookHeaders(secrets, event.id, timestamp, body),
        body,
        timeoutMs: this.#o.timeoutMs,
        signal: this.#abort.signal,
      });
    } catch (error) {
      const message = error instanceof UnsafeUrlError ? `refused: ${error.reason}` : (error as Error).message;
      return { statusCode: null, latencyMs: Math.round(performance.now() - started), error: message };
    }
  }

  /** Counts a failure against an endpoint; past the limit it is disabled and its pending deliveries fail. */
  async #endpointFailed(endpointId: string, at: Date): Promise<void> {
    const records = this.#o.repository.webhooks;
    const endpoint = await records.getEndpoint(endpointId);
    if (!endpoint || endpoint.disabled_at !== null) return;
    const failingSince = endpoint.failing_since ?? at.toISOString();
    if (at.getTime() - Date.parse(failingSince) < this.#o.disableAfterMs) {
      if (endpoint.failing_since === null) await records.updateEndpoint(endpoint.id, { failing_since: failingSince });
      return;
    }
    // Its pending deliveries fail first: whoever sees the endpoint disabled sees them failed too.
    for (const delivery of await records.pendingDeliveries()) {
      if (delivery.endpoint_id === endpoint.id) await records.updateDelivery(delivery.id, settle('failed', at));
    }
    const days = Math.round((this.#o.disableAfterMs / 86_400_000) * 10) / 10;
    await records.updateEndpoint(endpoint.id, {
      failing_since: failingSince,
      disabled_at: at.toISOString(),
      disabled_reason: `Every delivery attempt since ${failingSince} failed (${days} days or more). Fix the receiver, then enable the endpoint again.`,
    });
    this.#o.log(`Webhook endpoint ${endpoint.id} disabled after failing since ${failingSince}.`);
  }
}

/** A delivery's move to `state`; a pending one is due at `nextAt`. */
function settle(
  state: DeliveryState,
  at: Date,
  nextAt: Date | null = null,
): Pick<WebhookDelivery, 'state' | 'next_attempt_at' | 'updated_at'> {
  return {
    state,
    next_attempt_at: state === 'pending' && nextAt ? nextAt.toISOString() : null,
    updated_at: at.toISOString(),
  };
}

/** Deliveries to one scheme://host:port share a small concurrency budget. */
function receiverOf(url: string): string {
  return new URL(url).origin;
}
