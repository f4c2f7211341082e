/**
 * webhooks.json in the data dir (endpoints, secrets, and the outbox: events and their deliveries), held
 * in memory with the indexes the service and the delivery worker share. Every change goes through here
 * and is saved before the caller goes on: written whole, crash-safe and coalesced like accounts.json, so
 * a caller that awaits save() knows its change is on disk.
 */
import { AtomicJsonFile, CoalescingWriter, type OpenFile } from '../store/atomic-file.ts';
import { recordOfArrays, type Problem } from '../store/shape.ts';
import type { DeliveryState, WebhookData, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './types.ts';

export const WEBHOOK_FILE = 'webhooks.json';

/** Settled deliveries (and their events) stay in the log this long. */
const RETAIN_MS = 14 * 24 * 3600 * 1000;
/** A delivery's log keeps this many attempts (a round has at most 11; resends add rounds). */
const MAX_LOGGED_ATTEMPTS = 50;

/** Arrays may be missing (older files lack the newer ones); those there must hold records with their ids. */
const checkWebhookData = (value: unknown): Problem =>
  recordOfArrays(
    value,
    {
      endpoints: ['id', 'account_id', 'url'],
      secrets: ['account_id', 'secret'],
      events: ['id', 'type', 'account_id', 'generation_id'],
      deliveries: ['id', 'event_id', 'account_id', 'url', 'state'],
    },
    true,
  );

const eventKey = (generationId: string, type: string): string => `${generationId}\n${type}`;

export class Outbox {
  readonly data: WebhookData;
  readonly #file: AtomicJsonFile<WebhookData>;
  readonly #writer: CoalescingWriter;
  readonly #events = new Map<string, WebhookEvent>();
  readonly #eventsByKey = new Map<string, WebhookEvent>();
  readonly #deliveries = new Map<string, WebhookDelivery>();
  /** Each account's deliveries in creation order (data.deliveries is appended to, pruning keeps the order). */
  readonly #byAccount = new Map<string, WebhookDelivery[]>();
  readonly pending = new Map<string, WebhookDelivery>();

  private constructor(file: AtomicJsonFile<WebhookData>, writer: CoalescingWriter, stored: Partial<WebhookData> | null) {
    this.#file = file;
    this.#writer = writer;
    this.data = { endpoints: [], secrets: [], events: [], deliveries: [], ...stored };
    for (const event of this.data.events) this.#indexEvent(event);
    for (const delivery of this.data.deliveries) this.#indexDelivery(delivery);
  }

  /** `open`: how the file is opened for writing (the store's openForWrite checks the data-dir lock first). */
  static async open(path: string, open?: OpenFile): Promise<Outbox> {
    const writer = new CoalescingWriter({ open });
    // 0600: the file holds the accounts' signing secrets.
    const file = new AtomicJsonFile<WebhookData>(path, writer, { mode: 0o600, check: checkWebhookData });
    return new Outbox(file, writer, await file.read());
  }

  save(): Promise<void> {
    return this.#file.write(this.data);
  }

  /** Resolves once every save requested so far is on disk. */
  idle(): Promise<void> {
    return this.#writer.idle();
  }

  event(id: string): WebhookEvent | undefined {
    return this.#events.get(id);
  }

  eventFor(generationId: string, type: string): WebhookEvent | undefined {
    return this.#eventsByKey.get(eventKey(generationId, type));
  }

  delivery(id: string): WebhookDelivery | undefined {
    return this.#deliveries.get(id);
  }

  /** An account's deliveries, oldest first. */
  deliveriesOf(accountId: string): readonly WebhookDelivery[] {
    return this.#byAccount.get(accountId) ?? [];
  }

  endpoint(id: string): WebhookEndpoint | undefined {
    return this.data.endpoints.find((e) => e.id === id);
  }

  add(event: WebhookEvent, deliveries: WebhookDelivery[]): void {
    this.data.events.push(event);
    this.#indexEvent(event);
    for (const delivery of deliveries) {
      this.data.deliveries.push(delivery);
      this.#indexDelivery(delivery);
    }
  }

  /** Moves a delivery to a new state; a pending one is due at `nextAt`. */
  setState(delivery: WebhookDelivery, state: DeliveryState, at: Date, nextAt: Date | null = null): void {
    delivery.state = state;
    delivery.next_attempt_at = state === 'pending' && nextAt ? nextAt.toISOString() : null;
    delivery.updated_at = at.toISOString();
    if (state === 'pending') this.pending.set(delivery.id, delivery);
    else this.pending.delete(delivery.id);
  }

  logAttempt(delivery: WebhookDelivery, attempt: WebhookDelivery['attempts'][number]): void {
    delivery.attempts.push(attempt);
    if (delivery.attempts.length > MAX_LOGGED_ATTEMPTS) delivery.attempts.splice(0, delivery.attempts.length - MAX_LOGGED_ATTEMPTS);
    delivery.round_attempts += 1;
  }

  /** Drops settled deliveries older than the retention, and events left without deliveries. */
  prune(now: Date): void {
    const cutoff = now.getTime() - RETAIN_MS;
    const kept = this.data.deliveries.filter((d) => d.state === 'pending' || Date.parse(d.updated_at) >= cutoff);
    if (kept.length === this.data.deliveries.length) return;
    this.data.deliveries = kept;
    this.#deliveries.clear();
    this.#byAccount.clear();
    for (const delivery of kept) this.#indexDelivery(delivery);
    const live = new Set(kept.map((d) => d.event_id));
    this.data.events = this.data.events.filter((e) => {
      if (live.has(e.id)) return true;
      this.#events.delete(e.id);
      this.#eventsByKey.delete(eventKey(e.generation_id, e.type));
      return false;
    });
  }

  #indexEvent(event: WebhookEvent): void {
    this.#events.set(event.id, event);
    this.#eventsByKey.set(eventKey(event.generation_id, event.type), event);
  }

  #indexDelivery(delivery: WebhookDelivery): void {
    this.#deliveries.set(delivery.id, delivery);
    const log = this.#byAccount.get(delivery.account_id);
    if (log) log.push(delivery);
    else this.#byAccount.set(delivery.account_id, [delivery]);
    if (delivery.state === 'pending') this.pending.set(delivery.id, delivery);
  }
}
