/**
 * The in-memory view of one account's generations, built at open: newest first (ties by id),
 * with status counts and per-month usage kept up to date, so listing a page and checking a quota
 * never scan the whole history.
 */
import type { Generation, GenerationStatus, TrackSize } from '../domain/model.ts';

/** Newest first; equal timestamps by ascending id, so the order is total and stable. */
export function newestFirst(a: Generation, b: Generation): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const counts = (): Record<GenerationStatus, number> => ({ pending: 0, processing: 0, completed: 0, failed: 0 });

export class AccountGenerations {
  readonly #items: Generation[] = [];
  readonly #statusCounts = counts();
  /** Month -> tasks that count against its quota (every task that has not failed). */
  readonly #usage = new Map<string, number>();
  /**
   * The sum of the last measure sumKept was given, kept up to date as generations come, change and go, so the
   * storage budget read before every POST is not a scan of the whole history (issue 29).
   */
  #kept: { measure: (track: TrackSize) => number; sum: number } | null = null;

  get size(): number {
    return this.#items.length;
  }

  /** Bulk load: call sortAfterLoad() once afterwards. */
  push(generation: Generation): void {
    this.#items.push(generation);
    this.#count(generation, +1);
  }

  /**
   * The sum of `measure` over the generations that keep files (all but the failed): counted once, then kept as
   * they come, change and go (a store passes the same measure every time).
   */
  sumKept(measure: (track: TrackSize) => number): number {
    if (this.#kept?.measure !== measure) {
      let sum = 0;
      for (const generation of this.#items) if (generation.status !== 'failed') sum += measure(generation);
      this.#kept = { measure, sum };
    }
    return this.#kept.sum;
  }

  sortAfterLoad(): void {
    this.#items.sort(newestFirst);
  }

  insert(generation: Generation): void {
    // New tasks are almost always the newest: a binary search keeps the rare out-of-order insert correct.
    let low = 0;
    let high = this.#items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const item = this.#items[mid];
      if (item !== undefined && newestFirst(item, generation) < 0) low = mid + 1;
      else high = mid;
    }
    this.#items.splice(low, 0, generation);
    this.#count(generation, +1);
  }

  remove(generation: Generation): void {
    const at = this.#items.indexOf(generation);
    if (at === -1) return;
    this.#items.splice(at, 1);
    this.#count(generation, -1);
  }

  /** A deleted task leaves the pages but not the quota: its month's unit stays spent (unless it failed). */
  delete(generation: Generation): void {
    const at = this.#items.indexOf(generation);
    if (at === -1) return;
    this.#items.splice(at, 1);
    this.#statusCounts[generation.status] -= 1;
    this.#keep(generation, -1);
  }

  /** At load: a task deleted earlier, which still counts against its month's quota. */
  countDeleted(generation: Pick<Generation, 'status' | 'quota_month'>): void {
    if (generation.status !== 'failed')
      this.#usage.set(generation.quota_month, (this.#usage.get(generation.quota_month) ?? 0) + 1);
  }

  /** Changes one of the account's generations in place, its counts and kept sum with it. */
  update(generation: Generation, patch: Partial<Generation>): void {
    this.#count(generation, -1);
    Object.assign(generation, patch);
    this.#count(generation, +1);
  }

  usage(month: string): number {
    return this.#usage.get(month) ?? 0;
  }

  page(status: GenerationStatus | undefined, offset: number, limit: number): { items: Generation[]; total: number } {
    if (status === undefined) {
      return { items: this.#items.slice(offset, offset + limit), total: this.#items.length };
    }
    const total = this.#statusCounts[status];
    const items: Generation[] = [];
    let skipped = 0;
    for (const generation of this.#items) {
      // Past the last of that status no more can come: the waiting tasks of a long history are found without
      // scanning it all (the task bound lists them before every POST).
      if (items.length >= limit || skipped + items.length >= total) break;
      if (generation.status !== status) continue;
      if (skipped < offset) skipped++;
      else items.push(generation);
    }
    return { items, total };
  }

  /** Like page(), for the generations whose prompt contains `text` (any case): a scan, as counts cannot help. */
  search(
    text: string,
    status: GenerationStatus | undefined,
    offset: number,
    limit: number,
  ): { items: Generation[]; total: number } {
    const needle = text.toLowerCase();
    const matches = this.#items.filter(
      (g) => (status === undefined || g.status === status) && g.prompt.toLowerCase().includes(needle),
    );
    return { items: matches.slice(offset, offset + limit), total: matches.length };
  }

  #count(generation: Generation, delta: 1 | -1): void {
    const { status, quota_month: month } = generation;
    this.#statusCounts[status] += delta;
    if (status !== 'failed') this.#usage.set(month, (this.#usage.get(month) ?? 0) + delta);
    this.#keep(generation, delta);
  }

  #keep(generation: Generation, delta: 1 | -1): void {
    if (this.#kept && generation.status !== 'failed') this.#kept.sum += delta * this.#kept.measure(generation);
  }
}
