/**
 * webhooks.json in the data dir (endpoints, secrets, and the outbox: events and their deliveries), held in
 * memory with the indexes reads need. Every change is saved before the caller goes on: written whole,
 * crash-safe and coalesced like accounts.json; a delivery's change is shown (getDelivery, listDeliveries) only once
 * its save has landed. An event is committed with its generation's transition, in the
 * generation's own file (file-repository.ts); this file is where its deliveries are then kept, and a crash
 * between the two writes is mended at the next open (adopt()).
 */
import { AtomicJsonFile, type CoalescingWriter } from './atomic-file.ts';
import type { DeliveryQuery, WebhookRecords } from './repository.ts';
import { recordOfArrays, type Problem } from './shape.ts';
import type {
  AccountSecret,
  EventType,
  WebhookData,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from '../domain/webhooks/types.ts';

export const WEBHOOK_FILE = 'webhooks.json';

/** Settled deliveries (and their events) stay in the log this long. */
export const RETAIN_MS = 14 * 24 * 3600 * 1000;

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
const copyEndpoint = (e: WebhookEndpoint): WebhookEndpoint => ({ ...e, events: [...e.events] });
const copyDelivery = (d: WebhookDelivery): WebhookDelivery => ({ ...d, attempts: d.attempts.map((a) => ({ ...a })) });

export class WebhookFile implements WebhookRecords {
  readonly #data: WebhookData;
  readonly #file: AtomicJsonFile<WebhookData>;
  readonly #events = new Map<string, WebhookEvent>();
  readonly #eventsByKey = new Map<string, WebhookEvent>();
  readonly #deliveries = new Map<string, WebhookDelivery>();
  /** Each account's deliveries in creation order (data.deliveries is appended to, pruning keeps the order). */
  readonly #byAccount = new Map<string, WebhookDelivery[]>();
  /** Pending deliveries, in creation order. */
  readonly #pending = new Map<string, WebhookDelivery>();
  /** Who is sending a delivery now, until when: one process owns the data dir, so memory is where leases live. */
  readonly #leases = new Map<string, { owner: string; until: number }>();
  /**
   * Deliveries whose change is not on disk yet, as they were before it, and how many saves of them are in flight:
   * what the log shows until the last of those saves lands, so a crash can never take back what a client saw.
   */
  readonly #unsaved = new Map<string, { shown: WebhookDelivery; saves: number }>();

  private constructor(file: AtomicJsonFile<WebhookData>, stored: Partial<WebhookData> | null) {
    this.#file = file;
    this.#data = { endpoints: [], secrets: [], events: [], deliveries: [], ...stored };
    for (const event of this.#data.events) this.#indexEvent(event);
    for (const delivery of this.#data.deliveries) this.#indexDelivery(delivery);
  }

  static async open(path: string, writer: CoalescingWriter): Promise<WebhookFile> {
    // 0600: the file holds the accounts' signing secrets.
    const file = new AtomicJsonFile<WebhookData>(path, writer, { mode: 0o600, check: checkWebhookData });
    return new WebhookFile(file, await file.read());
  }

  save(): Promise<void> {
    return this.#file.write(this.#data);
  }

  // Endpoints and secrets

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return this.endpointsOf(accountId).map(copyEndpoint);
  }

  endpointsOf(accountId: string): WebhookEndpoint[] {
    return this.#data.endpoints.filter((e) => e.account_id === accountId);
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.#endpoint(id);
    return endpoint && copyEndpoint(endpoint);
  }

  async addEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    this.#data.endpoints.push(copyEndpoint(endpoint));
    await this.save();
  }

  async updateEndpoint(
    id: string,
    patch: Partial<Omit<WebhookEndpoint, 'id' | 'account_id'>>,
  ): Promise<WebhookEndpoint> {
    const endpoint = this.#endpoint(id);
    if (!endpoint) throw new Error(`No webhook endpoint ${id}.`);
    Object.assign(endpoint, patch);
    // As the caller left it: another change may land before the save below returns.
    const updated = copyEndpoint(endpoint);
    await this.save();
    return updated;
  }

  async deleteEndpoint(id: string): Promise<void> {
    this.#data.endpoints = this.#data.endpoints.filter((e) => e.id !== id);
    await this.save();
  }

  async getSecret(accountId: string): Promise<AccountSecret | undefined> {
    const secret = this.#data.secrets.find((s) => s.account_id === accountId);
    return secret && { ...secret };
  }

  async putSecret(secret: AccountSecret): Promise<void> {
    const at = this.#data.secrets.findIndex((s) => s.account_id === secret.account_id);
    if (at === -1) this.#data.secrets.push({ ...secret });
    else this.#data.secrets[at] = { ...secret };
    await this.save();
  }

  async addSecretIfAbsent(secret: AccountSecret): Promise<AccountSecret> {
    const existing = this.#data.secrets.find((s) => s.account_id === secret.account_id);
    if (existing) return { ...existing };
    this.#data.secrets.push({ ...secret });
    await this.save();
    return { ...secret };
  }

  // Events and deliveries

  async getEvent(id: string): Promise<WebhookEvent | undefined> {
    const event = this.#events.get(id);
    return event && { ...event };
  }

  eventFor(generationId: string, type: EventType): WebhookEvent | undefined {
    const event = this.#eventsByKey.get(eventKey(generationId, type));
    return event && { ...event };
  }

  async getDelivery(id: string): Promise<WebhookDelivery | undefined> {
    const delivery = this.#deliveries.get(id);
    return delivery && copyDelivery(this.#shown(delivery));
  }

  async listDeliveries(accountId: string, query: DeliveryQuery): Promise<{ items: WebhookDelivery[]; total: number }> {
    const log = this.#byAccount.get(accountId) ?? [];
    const items: WebhookDelivery[] = [];
    let total = 0;
    // The log is in creation order: walking it backwards lists newest first without copying or sorting it.
    for (let i = log.length - 1; i >= 0; i--) {
      const entry = log[i];
      if (!entry) continue;
      const delivery = this.#shown(entry);
      if (query.state !== undefined && delivery.state !== query.state) continue;
      if (query.endpointId !== undefined && delivery.endpoint_id !== query.endpointId) continue;
      if (total >= query.offset && items.length < query.limit) items.push(copyDelivery(delivery));
      total += 1;
    }
    return { items, total };
  }

  async pendingDeliveries(): Promise<WebhookDelivery[]> {
    return [...this.#pending.values()].map(copyDelivery);
  }

  async claimDelivery(id: string, owner: string, until: Date, now: Date): Promise<WebhookDelivery | undefined> {
    const delivery = this.#pending.get(id);
    const lease = this.#leases.get(id);
    if (!delivery || (lease && lease.owner !== owner && lease.until > now.getTime())) return undefined;
    this.#leases.set(id, { owner, until: until.getTime() });
    return copyDelivery(delivery);
  }

  async updateDelivery(
    id: string,
    patch: Partial<Omit<WebhookDelivery, 'id' | 'event_id' | 'account_id'>>,
  ): Promise<WebhookDelivery> {
    const delivery = this.#deliveries.get(id);
    if (!delivery) throw new Error(`No webhook delivery ${id}.`);
    this.#leases.delete(id);
    // Until the save lands, readers of the log see the delivery as it was (#shown).
    const before = copyDelivery(delivery);
    Object.assign(delivery, patch);
    if (delivery.state === 'pending') this.#pending.set(id, delivery);
    else this.#pending.delete(id);
    // As the caller left it: the delivery worker may send it again before the save below returns.
    const updated = copyDelivery(delivery);
    const unsaved = this.#unsaved.get(id);
    if (unsaved) unsaved.saves += 1;
    else this.#unsaved.set(id, { shown: before, saves: 1 });
    try {
      await this.save();
    } finally {
      const held = this.#unsaved.get(id);
      if (held && --held.saves === 0) this.#unsaved.delete(id);
    }
    return updated;
  }

  /** A delivery as the log shows it: its last saved state while a change of it is still being written. */
  #shown(delivery: WebhookDelivery): WebhookDelivery {
    return this.#unsaved.get(delivery.id)?.shown ?? delivery;
  }

  async prune(now: Date): Promise<void> {
    if (this.pruneInMemory(now)) await this.save();
  }

  /** Applies an event committed with its transition (file-repository.ts saves the file after). */
  addEvent(event: WebhookEvent, deliveries: readonly WebhookDelivery[]): void {
    const kept = { ...event };
    this.#data.events.push(kept);
    this.#indexEvent(kept);
    for (const delivery of deliveries) {
      const record = copyDelivery(delivery);
      this.#data.deliveries.push(record);
      this.#indexDelivery(record);
    }
  }

  setEventTransition(eventId: string, transitionAt: string | null): void {
    const event = this.#events.get(eventId);
    if (event) event.transition_at = transitionAt;
  }

  /**
   * At open: an event its generation's file holds but this file does not (a crash came between the two
   * writes) is added with its deliveries; one it holds with an older stamp takes the newer. True if anything changed.
   */
  adopt(event: WebhookEvent, deliveries: readonly WebhookDelivery[]): boolean {
    const known = this.#events.get(event.id);
    if (!known) {
      this.addEvent(event, deliveries);
      return true;
    }
    if (known.transition_at === event.transition_at) return false;
    known.transition_at = event.transition_at;
    return true;
  }

  /** True if anything was dropped. */
  pruneInMemory(now: Date): boolean {
    const cutoff = now.getTime() - RETAIN_MS;
    const kept = this.#data.deliveries.filter((d) => d.state === 'pending' || Date.parse(d.updated_at) >= cutoff);
    if (kept.length === this.#data.deliveries.length) return false;
    this.#data.deliveries = kept;
    this.#deliveries.clear();
    this.#byAccount.clear();
    this.#pending.clear();
    for (const delivery of kept) this.#indexDelivery(delivery);
    const live = new Set(kept.map((d) => d.event_id));
    this.#data.events = this.#data.events.filter((e) => {
      if (live.has(e.id)) return true;
      this.#events.delete(e.id);
      this.#eventsByKey.delete(eventKey(e.generation_id, e.type));
      return false;
    });
    return true;
  }

  #endpoint(id: string): WebhookEndpoint | undefined {
    return this.#data.endpoints.find((e) => e.id === id);
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
    if (delivery.state === 'pending') this.#pending.set(delivery.id, delivery);
  }
}
