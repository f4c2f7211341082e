/** Who watches which generation in this process (Repository.watchGeneration), and handing each a copy of a change. */
import type { Generation } from '../domain/model.ts';

export type GenerationListener = (generation: Generation | undefined) => void;

export class GenerationWatchers {
  readonly #watchers = new Map<string, Set<GenerationListener>>();

  /** Returns the function that stops the calls. */
  watch(id: string, listener: GenerationListener): () => void {
    let listeners = this.#watchers.get(id);
    if (!listeners) {
      listeners = new Set();
      this.#watchers.set(id, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#watchers.get(id) === listeners) this.#watchers.delete(id);
    };
  }

  watched(id: string): boolean {
    return this.#watchers.has(id);
  }

  /** Calls each listener of `id` with its own copy of the generation (undefined: it was deleted). */
  notify(id: string, generation: Generation | undefined): void {
    for (const listener of [...(this.#watchers.get(id) ?? [])]) listener(generation && { ...generation });
  }
}
