/**
 * Webhooks as the rest of the service uses them: the job queue's transition listener (record) writes
 * events to the outbox, and the account-facing operations (endpoints, the signing secret, the delivery
 * log, resend) serve the /v1/webhooks routes and the dashboard's webhooks page alike.
 */
import { randomBytes } from 'node:crypto';
import { PLAN_LABELS } from '../http/plan-label.ts';
import { PlanForbiddenError } from '../http/errors.ts';
import { limitsFor } from '../plans.ts';
import type { Account, Generation, Store } from '../store/types.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { WebhookLimitError, WebhookNotFoundError } from './errors.ts';
import type { Outbox } from './outbox.ts';
import { newWebhookSecret } from './signature.ts';
import { EVENT_OF_STATUS, transitionStamp } from './transition.ts';
import { DEFAULT_EVENTS, type AccountSecret, type DeliveryState, type EventType, type WebhookDelivery, type WebhookEndpoint } from './types.ts';
import { checkWebhookUrl, type Resolver } from './url-safety.ts';

/** How long the secret before a rotation keeps signing (both signatures are sent meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
export const MAX_ENDPOINTS = 10;
/** Old settled deliveries are pruned at most this often (on the next event). */
const PRUNE_EVERY_MS = 3600 * 1000;

export interface NewEndpoint {
  url: string;
  events?: readonly EventType[] | undefined;
  description?: string | null | undefined;
}

export interface SecretView {
  secret: string;
  created_at: string;
  /** Until when the secret before the last rotation still signs (null when none does). */
  previous_expires_at: string | null;
}

export interface DeliveryListOptions {
  limit: number;
  offset: number;
  state?: DeliveryState | undefined;
  endpointId?: string | undefined;
}

/** A delivery with what its event says, for the log. */
export interface DeliveryView extends WebhookDelivery {
  event_type: EventType;
  generation_id: string;
}

const randomId = (prefix: string): string => prefix + randomBytes(16).toString('base64url');

export interface WebhookServiceOptions {
  outbox: Outbox;
  worker: DeliveryWorker;
  store: Store;
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
  now: () => Date;
}

export class WebhookService {
  readonly #outbox: Outbox;
  readonly #worker: DeliveryWorker;
  readonly #store: Store;
  readonly #allowPrivate: boolean;
  readonly #resolve: Resolver | undefined;
  readonly #now: () => Date;
  #prunedAt = 0;

  constructor(options: WebhookServiceOptions) {
    this.#outbox = options.outbox;
    this.#worker = options.worker;
    this.#store = options.store;
    this.#allowPrivate = options.allowPrivate;
    this.#resolve = options.resolve;
    this.#now = options.now;
  }

  /**
   * The job queue's listener: called with a task as it is about to be saved processing, completed or
   * failed, and awaited before that save. So the event and its deliveries are on disk first, and a
   * crash in between loses nothing (the worker sends once the task's save shows the transition).
   */
  readonly record = async (generation: Generation): Promise<void> => {
    const type = EVENT_OF_STATUS[generation.status];
    const account = this.#store.getAccount(generation.account_id);
    if (!type || !account || !limitsFor(account).webhooks) return;
    const now = this.#now();
    const transitionAt = transitionStamp(type, generation);
    const existing = this.#outbox.eventFor(generation.id, type);
    if (existing) {
      // The same transition again (a re-render after a crash): keep the id, announce the newest state.
      existing.transition_at = transitionAt;
      await this.#outbox.save();
      this.#worker.wake();
      return;
    }
    const targets: { endpoint_id: string | null; url: string }[] = [];
    if (generation.callback_url !== null && DEFAULT_EVENTS.includes(type)) targets.push({ endpoint_id: null, url: generation.callback_url });
    for (const endpoint of this.#outbox.data.endpoints) {
      if (endpoint.account_id === account.id && endpoint.disabled_at === null && endpoint.events.includes(type)) {
        targets.push({ endpoint_id: endpoint.id, url: endpoint.url });
      }
    }
    if (targets.length === 0) return;
    const at = now.toISOString();
    const event = { id: randomId('evt_'), type, account_id: account.id, generation_id: generation.id, created_at: at, transition_at: transitionAt };
    const deliveries: WebhookDelivery[] = targets.map((target) => ({
      id: randomId('whd_'),
      event_id: event.id,
      account_id: account.id,
      ...target,
      state: 'pending',
      attempts: [],
      round_attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    }));
    if (now.getTime() - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      this.#outbox.prune(now);
    }
    this.#outbox.add(event, deliveries);
    this.#secretRecord(account.id);
    await this.#outbox.save();
    this.#worker.wake();
  };

  /** Refuses a URL that is (or resolves to) a forbidden address with an UnsafeUrlError naming `param`. */
  checkUrl(url: string, param: string): Promise<void> {
    return checkWebhookUrl(url, param, { allowPrivate: this.#allowPrivate, resolve: this.#resolve });
  }

  /** Throws PlanForbiddenError unless the account's plan includes webhooks. */
  assertAllowed(account: Account): void {
    if (!limitsFor(account).webhooks) throw new PlanForbiddenError(undefined, PLAN_LABELS[account.plan], 'Webhooks');
  }

  listEndpoints(account: Account): WebhookEndpoint[] {
    this.assertAllowed(account);
    return this.#outbox.data.endpoints.filter((e) => e.account_id === account.id).map((e) => ({ ...e, events: [...e.events] }));
  }

  /** Registers an endpoint; a URL that is (or resolves to) a forbidden address is an UnsafeUrlError naming `url`. */
  async createEndpoint(account: Account, input: NewEndpoint): Promise<WebhookEndpoint> {
    this.assertAllowed(account);
    await this.checkUrl(input.url, 'url');
    if (this.#outbox.data.endpoints.filter((e) => e.account_id === account.id).length >= MAX_ENDPOINTS) throw new WebhookLimitError(MAX_ENDPOINTS);
    const endpoint: WebhookEndpoint = {
      id: randomId('we_'),
      account_id: account.id,
      url: input.url,
      events: [...new Set(input.events && input.events.length > 0 ? input.events : DEFAULT_EVENTS)],
      description: input.description ?? null,
      created_at: this.#now().toISOString(),
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
    };
    this.#outbox.data.endpoints.push(endpoint);
    this.#secretRecord(account.id);
    await this.#outbox.save();
    return { ...endpoint, events: [...endpoint.events] };
  }

  /** Removes an endpoint; its pending deliveries are cancelled when they come due. */
  async deleteEndpoint(account: Account, id: string): Promise<void> {
    this.assertAllowed(account);
    const endpoint = this.#ownEndpoint(account, id);
    this.#outbox.data.endpoints = this.#outbox.data.endpoints.filter((e) => e !== endpoint);
    await this.#outbox.save();
  }

  /** Turns a disabled endpoint back on (after its receiver was fixed). */
  async enableEndpoint(account: Account, id: string): Promise<WebhookEndpoint> {
    this.assertAllowed(account);
    const endpoint = this.#ownEndpoint(account, id);
    endpoint.disabled_at = null;
    endpoint.disabled_reason = null;
    endpoint.failing_since = null;
    await this.#outbox.save();
    return { ...endpoint, events: [...endpoint.events] };
  }

  /** The account's signing secret, made on first use. */
  async getSecret(account: Account): Promise<SecretView> {
    this.assertAllowed(account);
    const { record, created } = this.#secretRecord(account.id);
    if (created) await this.#outbox.save();
    return this.#secretView(record);
  }

  /** A new secret; the old one goes on signing beside it for 24 h, so receivers can switch without losing events. */
  async rotateSecret(account: Account): Promise<SecretView> {
    this.assertAllowed(account);
    const { record } = this.#secretRecord(account.id);
    const now = this.#now();
    record.previous = record.secret;
    record.previous_expires_at = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
    record.secret = newWebhookSecret();
    record.created_at = now.toISOString();
    await this.#outbox.save();
    return this.#secretView(record);
  }

  /** The secrets that sign the account's webhooks now: the current one, and the previous one during a rotation. */
  readonly signingSecrets = async (accountId: string): Promise<string[]> => {
    const { record, created } = this.#secretRecord(accountId);
    if (created) await this.#outbox.save();
    const previousValid = record.previous !== null && record.previous_expires_at !== null && Date.parse(record.previous_expires_at) > this.#now().getTime();
    return previousValid ? [record.secret, record.previous!] : [record.secret];
  };

  /** The delivery log, newest first. */
  listDeliveries(account: Account, options: DeliveryListOptions): { items: DeliveryView[]; total: number } {
    this.assertAllowed(account);
    const log = this.#outbox.deliveriesOf(account.id);
    const items: DeliveryView[] = [];
    let total = 0;
    // The log is in creation order: walking it backwards lists newest first without copying or sorting it.
    for (let i = log.length - 1; i >= 0; i--) {
      const delivery = log[i]!;
      if (options.state !== undefined && delivery.state !== options.state) continue;
      if (options.endpointId !== undefined && delivery.endpoint_id !== options.endpointId) continue;
      if (total >= options.offset && items.length < options.limit) items.push(this.#view(delivery));
      total += 1;
    }
    return { items, total };
  }

  getDelivery(account: Account, id: string): DeliveryView {
    this.assertAllowed(account);
    return this.#view(this.#ownDelivery(account, id));
  }

  /** Sends a delivery again now, with the same webhook-id and a fresh retry schedule. */
  async resend(account: Account, id: string): Promise<DeliveryView> {
    this.assertAllowed(account);
    const delivery = this.#ownDelivery(account, id);
    const now = this.#now();
    delivery.round_attempts = 0;
    this.#outbox.setState(delivery, 'pending', now, now);
    // Seen as the caller left it: the worker may have sent it again before the save below returns.
    const view = this.#view(delivery);
    await this.#outbox.save();
    this.#worker.wake();
    return view;
  }

  #ownEndpoint(account: Account, id: string): WebhookEndpoint {
    const endpoint = this.#outbox.endpoint(id);
    if (!endpoint || endpoint.account_id !== account.id) throw new WebhookNotFoundError('webhook_endpoint', id);
    return endpoint;
  }

  #ownDelivery(account: Account, id: string): WebhookDelivery {
    const delivery = this.#outbox.delivery(id);
    if (!delivery || delivery.account_id !== account.id) throw new WebhookNotFoundError('webhook_delivery', id);
    return delivery;
  }

  #secretRecord(accountId: string): { record: AccountSecret; created: boolean } {
    const existing = this.#outbox.data.secrets.find((s) => s.account_id === accountId);
    if (existing) return { record: existing, created: false };
    const record: AccountSecret = { account_id: accountId, secret: newWebhookSecret(), previous: null, previous_expires_at: null, created_at: this.#now().toISOString() };
    this.#outbox.data.secrets.push(record);
    return { record, created: true };
  }

  #secretView(record: AccountSecret): SecretView {
    const previousValid = record.previous_expires_at !== null && Date.parse(record.previous_expires_at) > this.#now().getTime();
    return { secret: record.secret, created_at: record.created_at, previous_expires_at: previousValid ? record.previous_expires_at : null };
  }

  #view(delivery: WebhookDelivery): DeliveryView {
    const event = this.#outbox.event(delivery.event_id)!;
    return { ...delivery, attempts: delivery.attempts.map((a) => ({ ...a })), event_type: event.type, generation_id: event.generation_id };
  }
}
