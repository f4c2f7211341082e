/**
 * A generation's changes of state after its creation, whoever makes them (the render queue, a cancel, a
 * restart): each is one transaction with the webhook event it causes, and the delivery worker is woken once
 * both are committed.
 */
import type { GenerationPatch, Repository } from '../store/repository.ts';
import type { Generation } from '../store/types.ts';
import { recordTransitionEvent } from './webhook-events.ts';

export interface LifecycleOptions {
  repository: Repository;
  now?: () => Date;
  /** Told after a committed transition caused a webhook event (the delivery worker's wake). */
  onEvent?: () => void;
}

export class GenerationLifecycle {
  readonly #repository: Repository;
  readonly #now: () => Date;
  readonly #onEvent: () => void;

  constructor(options: LifecycleOptions) {
    this.#repository = options.repository;
    this.#now = options.now ?? (() => new Date());
    this.#onEvent = options.onEvent ?? (() => undefined);
  }

  /** Saves the change with the event it causes; a change to status failed gives the quota unit back. */
  async transition(id: string, patch: GenerationPatch): Promise<Generation> {
    let evented = false;
    try {
      return await this.#repository.transaction(async (tx) => {
        const updated = await tx.updateGeneration(id, patch);
        evented = patch.status !== undefined && (await recordTransitionEvent(tx, updated, this.#now()));
        return updated;
      });
    } finally {
      // Also after a failed commit: the file store keeps the change in memory, and its event with it.
      if (evented) this.#onEvent();
    }
  }
}
