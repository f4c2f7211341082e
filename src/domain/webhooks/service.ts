/**
 * The account-facing side of webhooks (endpoints, the signing secret, the delivery log, resend), serving the
 * /v1/webhooks routes and the dashboard's webhooks page alike. The events themselves are recorded by the
 * generation lifecycle (src/domain/generations/webhook-events.ts), with the transitions that cause them.
 */
import { randomBytes } from 'node:crypto';
import { checkWebhooksPlan } from '../plan-gate.ts';
import type { DeliveryQuery, Repository } from '../../store/repository.ts';
import type { Account } from '../model.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import { WebhookLimitError, WebhookNotFoundError } from './errors.ts';
import { newWebhookSecret } from './signature.ts';
import {
  DEFAULT_EVENTS,
  type AccountSecret,
  type EventType,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './types.ts';
import { checkWebhookUrl, type Resolver } from './url-safety.ts';

/** How long the secret before a rotation keeps signing (both signatures are sent meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
export const MAX_ENDPOINTS = 10;

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

export type DeliveryListOptions = DeliveryQuery;

/** A delivery with what its event says, for the log. */
export interface DeliveryView extends WebhookDelivery {
  event_type: EventType;
  generation_id: string;
}

const randomId = (prefix: string): string => prefix + randomBytes(16).toString('base64url');

export interface WebhookServiceOptions {
  worker: DeliveryWorker;
  repository: Repository;
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
  now: () => Date;
}

export class WebhookService {
  readonly #worker: DeliveryWorker;
  readonly #repository: Repository;
  readonly #allowPrivate: boolean;
  readonly #resolve: Resolver | undefined;
  readonly #now: () => Date;

  constructor(options: WebhookServiceOptions) {
    this.#worker = options.worker;
    this.#repository = options.repository;
    this.#allowPrivate = options.allowPrivate;
    this.#resolve = options.resolve;
    this.#now = options.now;
  }

  get #records() {
    return this.#repository.webhooks;
  }

  /** Refuses a URL that is (or resolves to) a forbidden address with an UnsafeUrlError naming `param`. */
  checkUrl(url: string, param: string): Promise<void> {
    return checkWebhookUrl(url, param, { allowPrivate: this.#allowPrivate, resolve: this.#resolve });
  }

  /** Throws PlanForbiddenError unless the account's plan includes webhooks. */
  assertAllowed(account: Account): void {
    checkWebhooksPlan(account);
  }

  async listEndpoints(account: Account): Promise<WebhookEndpoint[]> {
    this.assertAllowed(account);
    return this.#records.listEndpoints(account.id);
  }

  /** Registers an endpoint; a URL that is (or resolves to) a forbidden address is an UnsafeUrlError naming `url`. */
  async createEndpoint(account: Account, input: NewEndpoint): Promise<WebhookEndpoint> {
    this.assertAllowed(account);
    await this.checkUrl(input.url, 'url');
    if ((await this.#records.listEndpoints(account.id)).length >= MAX_ENDPOINTS)
      throw new WebhookLimitError(MAX_ENDPOINTS);
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
    await this.#records.addEndpoint(endpoint);
    // The secret exists from the first endpoint on, so the receiver can be set up before any event.
    await this.#secretRecord(account.id);
    return endpoint;
  }

  /** Removes an endpoint; its pending deliveries are cancelled when they come due. */
  async deleteEndpoint(account: Account, id: string): Promise<void> {
    this.assertAllowed(account);
    await this.#records.deleteEndpoint((await this.#ownEndpoint(account, id)).id);
  }

  /** Turns a disabled endpoint back on (after its receiver was fixed). */
  async enableEndpoint(account: Account, id: string): Promise<WebhookEndpoint> {
    this.assertAllowed(account);
    const endpoint = await this.#ownEndpoint(account, id);
    return this.#records.updateEndpoint(endpoint.id, { disabled_at: null, disabled_reason: null, failing_since: null });
  }

  /** The account's signing secret, made on first use. */
  async getSecret(account: Account): Promise<SecretView> {
    this.assertAllowed(account);
    return this.#secretView(await this.#secretRecord(account.id));
  }

  /** A new secret; the old one goes on signing beside it for 24 h, so receivers can switch without losing events. */
  async rotateSecret(account: Account): Promise<SecretView> {
    this.assertAllowed(account);
    const record = await this.#secretRecord(account.id);
    const now = this.#now();
    const rotated: AccountSecret = {
      account_id: account.id,
      previous: record.secret,
      previous_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      secret: newWebhookSecret(),
      created_at: now.toISOString(),
    };
    await this.#records.putSecret(rotated);
    return this.#secretView(rotated);
  }

  /** The secrets that sign the account's webhooks now: the current one, and the previous one during a rotation. */
  readonly signingSecrets = async (accountId: string): Promise<string[]> => {
    const record = await this.#secretRecord(accountId);
    const { previous } = record;
    const previousValid =
      previous !== null &&
      record.previous_expires_at !== null &&
      Date.parse(record.previous_expires_at) > this.#now().getTime();
    return previousValid ? [record.secret, previous] : [record.secret];
  };

  /** The delivery log, newest first. */
  async listDeliveries(
    account: Account,
    options: DeliveryListOptions,
  ): Promise<{ items: DeliveryView[]; total: number }> {
    this.assertAllowed(account);
    const { items, total } = await this.#records.listDeliveries(account.id, options);
    return { items: await Promise.all(items.map((delivery) => this.#view(delivery))), total };
  }

  async getDelivery(account: Account, id: string): Promise<DeliveryView> {
    this.assertAllowed(account);
    return this.#view(await this.#ownDelivery(account, id));
  }

  /** Sends a delivery again now, with the same webhook-id and a fresh retry schedule. */
  async resend(account: Account, id: string): Promise<DeliveryView> {
    this.assertAllowed(account);
    const delivery = await this.#ownDelivery(account, id);
    const at = this.#now().toISOString();
    const resent = await this.#records.updateDelivery(delivery.id, {
      round_attempts: 0,
      state: 'pending',
      next_attempt_at: at,
      updated_at: at,
    });
    this.#worker.wake();
    return this.#view(resent);
  }

  async #ownEndpoint(account: Account, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.#records.getEndpoint(id);
    if (!endpoint || endpoint.account_id !== account.id) throw new WebhookNotFoundError('webhook_endpoint', id);
    return endpoint;
  }

  async #ownDelivery(account: Account, id: string): Promise<WebhookDelivery> {
    const delivery = await this.#records.getDelivery(id);
    if (!delivery || delivery.account_id !== account.id) throw new WebhookNotFoundError('webhook_delivery', id);
    return delivery;
  }

  async #secretRecord(accountId: string): Promise<AccountSecret> {
    const existing = await this.#records.getSecret(accountId);
    if (existing) return existing;
    // Two first uses at once must agree on one secret: whichever is stored first is the account's.
    return this.#records.addSecretIfAbsent({
      account_id: accountId,
      secret: newWebhookSecret(),
      previous: null,
      previous_expires_at: null,
      created_at: this.#now().toISOString(),
    });
  }

  #secretView(record: AccountSecret): SecretView {
    const previousValid =
      record.previous_expires_at !== null && Date.parse(record.previous_expires_at) > this.#now().getTime();
    return {
      secret: record.secret,
      created_at: record.created_at,
      previous_expires_at: previousValid ? record.previous_expires_at : null,
    };
  }

  async #view(delivery: WebhookDelivery): Promise<DeliveryView> {
    const event = await this.#records.getEvent(delivery.event_id);
    if (!event) throw new Error(`webhook delivery ${delivery.id} names event ${delivery.event_id}, which is gone`);
    return { ...delivery, event_type: event.type, generation_id: event.generation_id };
  }
}
