/**
 * The JobQueue an API node holds in PostgreSQL mode. The render job was queued in the transaction that created
 * the generation (the repository's `enqueue` hook), and workers anywhere take it from there, so this node has
 * nothing to queue or to report live: a waiting task shows queue_position and estimated_time null, its status
 * pending or processing from the record. A cancel is a guarded transition: a render already running elsewhere
 * finishes, finds its task no longer processing, and drops its result.
 */
import type { GenerationLifecycle } from '../../generations/lifecycle.ts';
import { isTerminal } from '../../generations/present.ts';
import type { Repository } from '../../store/repository.ts';
import type { Generation } from '../../store/types.ts';
import { CANCELLED, failedPatch } from '../render-task.ts';
import type { JobQueue, LiveState } from '../types.ts';

export class SharedJobQueue implements JobQueue {
  readonly #repository: Repository;
  readonly #lifecycle: GenerationLifecycle;
  readonly #now: () => Date;
  #closed = false;

  constructor(options: { repository: Repository; lifecycle: GenerationLifecycle; now?: () => Date }) {
    this.#repository = options.repository;
    this.#lifecycle = options.lifecycle;
    this.#now = options.now ?? (() => new Date());
  }

  /** Already queued, in the creating transaction. */
  enqueue(_generation: Generation): void {}

  live(_id: string): LiveState | undefined {
    return undefined;
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
