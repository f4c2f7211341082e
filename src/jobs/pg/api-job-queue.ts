/**
 * The JobQueue an API node holds in PostgreSQL mode. The render job was queued in the transaction that created
 * the generation (the repository's `enqueue` hook), and workers anywhere take it from there, so this node has
 * nothing to queue; what it reports live (queue_position, estimated_time) it reads from the queue (pg-boss's
 * findJobs) and the generations, a page of tasks at a time (QueueEstimates), so `live` alone knows nothing. A cancel is a guarded transition: a render already running elsewhere
 * finishes, finds its task no longer processing, and drops its result.
 */
import type { PgBoss } from 'pg-boss';
import type { GenerationLifecycle } from '../../domain/generations/lifecycle.ts';
import { isTerminal } from '../../domain/generations/present.ts';
import type { Repository } from '../../store/repository.ts';
import type { Generation } from '../../domain/model.ts';
import { CANCELLED, failedPatch } from '../render-task.ts';
import type { Queryable } from '../../store/postgres/index.ts';
import type { JobQueue, LiveState } from '../types.ts';
import { QueueEstimates } from './queue-estimates.ts';

export class SharedJobQueue implements JobQueue {
  readonly #repository: Repository;
  readonly #lifecycle: GenerationLifecycle;
  readonly #now: () => Date;
  readonly #estimates: QueueEstimates;
  #closed = false;

  /** `db`: the repository's pool; `boss`: the queue the render jobs wait in. */
  constructor(options: {
    repository: Repository;
    lifecycle: GenerationLifecycle;
    db: Queryable;
    boss: PgBoss;
    now?: () => Date;
  }) {
    this.#repository = options.repository;
    this.#estimates = new QueueEstimates(options.db, options.boss);
    this.#lifecycle = options.lifecycle;
    this.#now = options.now ?? (() => new Date());
  }

  /** Already queued, in the creating transaction. */
  enqueue(_generation: Generation): void {}

  live(_id: string): LiveState | undefined {
    return undefined;
  }

  liveMany(generations: readonly Generation[]): Promise<Map<string, LiveState>> {
    return this.#estimates.live(generations);
  }

  async cancel(generation: Generation): Promise<Generation> {
    const cancelled = await this.#lifecycle.transitionIf(
      generation.id,
      (current) => !isTerminal(current.status),
      failedPatch({ code: 'cancelled', message: CANCELLED }, this.#now()),
    );
    return cancelled ?? (await this.#repository.getGeneration(generation.account_id, generation.id)) ?? generation;
  }

  healthy(): boolean {
    return !this.#closed;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
