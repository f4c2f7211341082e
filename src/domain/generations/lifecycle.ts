/**
 * A generation's changes of state after its creation, whoever makes them (the render queue, a cancel, a
 * restart): each is one transaction with the webhook event it causes, and the delivery worker is woken once
 * both are committed. Which changes are allowed, and what each causes, is the table in domain/task-transitions.ts.
 */
import type { GenerationPatch, Repository } from '../../store/repository.ts';
import type { Generation } from '../model.ts';
import { TransitionNotAllowedError, transitionOf } from '../task-transitions.ts';
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

  /** Saves the change with the event the transition table gives it; refuses one the table does not allow. */
  async transition(id: string, patch: GenerationPatch): Promise<Generation> {
    const updated = await this.#apply(id, null, patch);
    // Unconditional, so only a store that broke its contract gives nothing back.
    if (!updated) throw new Error(`saving a change to ${id} gave no generation back`);
    return updated;
  }

  /**
   * The same, only when the generation as the transaction reads it passes `expected`; undefined (nothing written)
   * when it does not or is gone. What keeps a re-run of a task whose first worker was thought dead from saving a
   * second completion or causing a second event: the state it expects (its own attempt, still processing) is gone.
   */
  transitionIf(
    id: string,
    expected: (current: Generation) => boolean,
    patch: GenerationPatch,
  ): Promise<Generation | undefined> {
    return this.#apply(id, expected, patch);
  }

  /** `expected` null: unconditional (an unknown id is the repository's error). */
  async #apply(
    id: string,
    expected: ((current: Generation) => boolean) | null,
    patch: GenerationPatch,
  ): Promise<Generation | undefined> {
    let evented = false;
    try {
      return await this.#repository.transaction(async (tx) => {
        const current = await tx.getGeneration(id);
        if (expected && (!current || !expected(current))) return undefined;
        const transition = current && patch.status !== undefined ? transitionOf(current.status, patch.status) : null;
        if (current && patch.status !== undefined && !transition)
          throw new TransitionNotAllowedError(current, patch.status);
        // An unknown id (no current) is the repository's NotFoundError.
        const updated = await tx.updateGeneration(id, patch);
        evented = !!transition?.event && (await recordTransitionEvent(tx, updated, this.#now(), transition.event));
        return updated;
      });
    } finally {
      // Also after a failed commit: the file store keeps the change in memory, and its event with it.
      if (evented) this.#onEvent();
    }
  }
}
