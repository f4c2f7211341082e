/**
 * Sends what the outbox holds: each pending delivery when it is due, a bounded number at a time and
 * never more than a few to one receiver, so a slow receiver holds up only its own deliveries (never the
 * API or the renders, which only write to the outbox). A failed attempt is retried on the schedule;
 * an endpoint that has failed for too long is disabled.
 */
import type { GenerationObject } from '../routes/generations/present.ts';
import type { Generation, Store } from '../store/types.ts';
import { UnsafeUrlError } from './errors.ts';
import type { Outbox } from './outbox.ts';
import { retryDelay } from './schedule.ts';
import { sendAttempt, type AttemptResult } from './sender.ts';
import { webhookHeaders } from './signature.ts';
import { announcedState, confirmation } from './transition.ts';
import type { WebhookDelivery, WebhookEvent } from './types.ts';
import { resolveForSend, type Resolver } from './url-safety.ts';

export interface DeliveryWorkerOptions {
  outbox: Outbox;
  store: Store;
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
}

/** While an event's task has not been saved in its new state yet, look again this often. */
const UNCONFIRMED_RECHECK_MS = 500;
/** Timers are re-armed at least this often, so a changed wall clock cannot stall the worker. */
const MAX_SLEEP_MS = 60_000;

export class DeliveryWorker {
  readonly #o: DeliveryWorkerOptions;
  /** Deliveries being attempted now. */
  readonly #inFlight = new Set<string>();
  /** Attempts in flight per receiver (scheme://host:port). */
  readonly #perReceiver = new Map<string, number>();
  readonly #heldUntil = new Map<string, number>();
  readonly #abort = new AbortController();
  #present: ((generation: Generation) => GenerationObject) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running = new Set<Promise<void>>();
  #closed = false;

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
    this.#timer = setTimeout(() => this.#tick(), 0);
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
  #tick(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#closed) return;
    const now = this.#o.now().getTime();
    let earliest = Number.POSITIVE_INFINITY;
    // In the outbox's order, oldest first: when room is short, the longest waiting go first.
    for (const delivery of this.#o.outbox.pending.values()) {
      if (this.#inFlight.size >= this.#o.concurrency) return;
      if (this.#inFlight.has(delivery.id)) continue;
      const dueAt = this.#dueAt(delivery);
      if (dueAt > now) {
        earliest = Math.min(earliest, dueAt);
        continue;
      }
      const receiver = receiverOf(delivery.url);
      const busy = this.#perReceiver.get(receiver) ?? 0;
      if (busy >= this.#o.perReceiver) continue;
      this.#perReceiver.set(receiver, busy + 1);
      this.#inFlight.add(delivery.id);
      this.#launch(delivery, receiver);
    }
    this.#arm(earliest, now);
  }

  #launch(delivery: WebhookDelivery, receiver: string): void {
    const run = this.#attempt(delivery).catch((error: unknown) => this.#o.log(`Webhook delivery ${delivery.id}: ${(error as Error).message}`));
    this.#running.add(run);
    void run.finally(() => {
      this.#running.delete(run);
      this.#inFlight.delete(delivery.id);
      const busy = (this.#perReceiver.get(receiver) ?? 1) - 1;
      if (busy > 0) this.#perReceiver.set(receiver, busy);
      else this.#perReceiver.delete(receiver);
      if (!this.#closed) this.#tick();
    });
  }

  #dueAt(delivery: WebhookDelivery): number {
    const next = delivery.next_attempt_at === null ? 0 : Date.parse(delivery.next_attempt_at);
    return Math.max(next, this.#heldUntil.get(delivery.id) ?? 0);
  }

  #arm(earliest: number, now: number): void {
    if (this.#closed || earliest === Number.POSITIVE_INFINITY) return;
    this.#timer = setTimeout(() => this.#tick(), Math.min(MAX_SLEEP_MS, Math.max(0, earliest - now)));
    this.#timer.unref();
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    const { outbox } = this.#o;
    const event = outbox.event(delivery.event_id);
    const current = event && this.#o.store.getGeneration(event.account_id, event.generation_id);
    const state = event ? confirmation(event, current) : 'void';
    if (state === 'waiting') {
      this.#heldUntil.set(delivery.id, this.#o.now().getTime() + UNCONFIRMED_RECHECK_MS);
      return;
    }
    this.#heldUntil.delete(delivery.id);
    const endpoint = delivery.endpoint_id === null ? undefined : outbox.endpoint(delivery.endpoint_id);
    if (!event || !current || state === 'void' || (delivery.endpoint_id !== null && !endpoint)) {
      outbox.setState(delivery, 'cancelled', this.#o.now());
      await outbox.save();
      return;
    }
    if (endpoint?.disabled_at) {
      outbox.setState(delivery, 'failed', this.#o.now());
      await outbox.save();
      return;
    }

    const result = await this.#send(delivery, event, announcedState(event, current));
    if (this.#closed) return;
    const at = this.#o.now();
    outbox.logAttempt(delivery, { at: at.toISOString(), status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error });
    if (result.error === null) {
      outbox.setState(delivery, 'delivered', at);
      if (endpoint) endpoint.failing_since = null;
    } else {
      const wait = retryDelay(delivery.round_attempts, this.#o.schedule, this.#o.jitter, this.#o.random);
      if (wait === null) outbox.setState(delivery, 'failed', at);
      else outbox.setState(delivery, 'pending', at, new Date(at.getTime() + wait));
      if (endpoint) this.#endpointFailed(endpoint.id, at);
    }
    await outbox.save();
  }

  /** One attempt, its body presented from `generation`: the task's record in the state the event announces. */
  async #send(delivery: WebhookDelivery, event: WebhookEvent, generation: Generation): Promise<AttemptResult> {
    const started = performance.now();
    try {
      const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: this.#present!(generation) });
      const secrets = await this.#o.secretsOf(delivery.account_id);
      const timestamp = Math.floor(this.#o.now().getTime() / 1000);
      const address = await resolveForSend(delivery.url, { allowPrivate: this.#o.allowPrivate, resolve: this.#o.resolve });
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
  #endpointFailed(endpointId: string, at: Date): void {
    const endpoint = this.#o.outbox.endpoint(endpointId);
    if (!endpoint || endpoint.disabled_at !== null) return;
    endpoint.failing_since ??= at.toISOString();
    if (at.getTime() - Date.parse(endpoint.failing_since) < this.#o.disableAfterMs) return;
    const days = Math.round((this.#o.disableAfterMs / 86_400_000) * 10) / 10;
    endpoint.disabled_at = at.toISOString();
    endpoint.disabled_reason = `Every delivery attempt since ${endpoint.failing_since} failed (${days} days or more). Fix the receiver, then enable the endpoint again.`;
    this.#o.log(`Webhook endpoint ${endpoint.id} disabled after failing since ${endpoint.failing_since}.`);
    for (const delivery of this.#o.outbox.pending.values()) {
      if (delivery.endpoint_id === endpoint.id) this.#o.outbox.setState(delivery, 'failed', at);
    }
  }
}

/** Deliveries to one scheme://host:port share a small concurrency budget. */
function receiverOf(url: string): string {
  return new URL(url).origin;
}
