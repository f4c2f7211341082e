/**
 * A transaction of the file store: reads see the committed records plus what the transaction wrote so far;
 * writes are only staged, and file-repository.ts applies and commits them together once the transaction's
 * function returns (transactions run one at a time, so nothing else sees them half done).
 */
import type { StoredEvent } from './generation-files.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { Account, Generation } from '../domain/model.ts';
import type { GenerationPatch, Transaction } from './repository.ts';
import type { EventType, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../domain/webhooks/types.ts';

export interface StagedWrites {
  generations: Map<string, GenerationPatch>;
  events: { event: WebhookEvent; deliveries: WebhookDelivery[] }[];
  stamps: { eventId: string; generationId: string; transitionAt: string | null }[];
}

/** The committed state a transaction reads (live records: it copies what it hands out). */
export interface CommittedReads {
  account(id: string): Account | undefined;
  generation(id: string): Generation | undefined;
  endpoints(accountId: string): WebhookEndpoint[];
  eventFor(generationId: string, type: EventType): WebhookEvent | undefined;
}

export class FileTransaction implements Transaction {
  readonly #committed: CommittedReads;
  readonly #staged: StagedWrites = { generations: new Map(), events: [], stamps: [] };

  constructor(committed: CommittedReads) {
    this.#committed = committed;
  }

  staged(): StagedWrites {
    return this.#staged;
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const account = this.#committed.account(id);
    return account && { ...account };
  }

  async getGeneration(id: string): Promise<Generation | undefined> {
    const generation = this.#committed.generation(id);
    return generation && { ...generation, ...this.#staged.generations.get(id) };
  }

  async updateGeneration(id: string, patch: GenerationPatch): Promise<Generation> {
    if (!this.#committed.generation(id)) throw new NotFoundError('generation', id);
    // Who a task belongs to and which month it counts against never change, whatever a patch says.
    const {
      id: _id,
      account_id: _account,
      created_at: _created,
      quota_month: _month,
      ...allowed
    } = patch as Partial<Generation>;
    this.#staged.generations.set(id, { ...this.#staged.generations.get(id), ...allowed });
    const updated = await this.getGeneration(id);
    if (!updated) throw new NotFoundError('generation', id);
    return updated;
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return this.#committed.endpoints(accountId).map((e) => ({ ...e, events: [...e.events] }));
  }

  async eventFor(generationId: string, type: EventType): Promise<WebhookEvent | undefined> {
    const staged = this.#staged.events.find(
      (e) => e.event.generation_id === generationId && e.event.type === type,
    )?.event;
    const event = staged ?? this.#committed.eventFor(generationId, type);
    if (!event) return undefined;
    const stamp = this.#staged.stamps.findLast((s) => s.eventId === event.id);
    return { ...event, ...(stamp ? { transition_at: stamp.transitionAt } : {}) };
  }

  async addEvent(event: WebhookEvent, deliveries: WebhookDelivery[]): Promise<void> {
    this.#staged.events.push({
      event: { ...event },
      deliveries: deliveries.map((d) => ({ ...d, attempts: [...d.attempts] })),
    });
  }

  async setEventTransition(
    event: Pick<WebhookEvent, 'id' | 'generation_id'>,
    transitionAt: string | null,
  ): Promise<void> {
    const staged = this.#staged.events.find((e) => e.event.id === event.id);
    if (staged) staged.event.transition_at = transitionAt;
    else this.#staged.stamps.push({ eventId: event.id, generationId: event.generation_id, transitionAt });
  }
}

/** A generation's stored events with `event` added, each with where its deliveries go. */
export function embedEvents(
  existing: readonly StoredEvent[] | undefined,
  event: WebhookEvent,
  deliveries: readonly WebhookDelivery[],
): StoredEvent[] {
  const stored: StoredEvent = {
    ...event,
    deliveries: deliveries.map((d) => ({ id: d.id, endpoint_id: d.endpoint_id, url: d.url })),
  };
  return [...(existing ?? []).filter((e) => e.id !== event.id), stored];
}
