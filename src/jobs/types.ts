import type { Generation } from '../domain/model.ts';

/** What the HTTP layer sees of the render queue. The implementation schedules fairly between accounts. */
export interface LiveState {
  /** 0 when rendering; n when it is the n-th waiting task to start (n - 1 tasks will start before it). */
  queue_position: number;
  /** 0–1. */
  progress: number;
  /** Seconds until completion, from the queue ahead and the measured render speed. */
  estimated_time: number;
}

export interface JobQueue {
  /**
   * Queue a task the store has just accepted (status processing). `rank` is its account's plan priority (lower
   * starts first; src/domain/plans.ts); absent, the account keeps the rank it had, or the default.
   */
  enqueue(generation: Generation, rank?: number): void;
  /** The live view of a task that is not terminal; undefined when the queue does not hold it. */
  live(id: string): LiveState | undefined;
  /**
   * The live view of several tasks at once (a page of a list), keyed by id; tasks the queue does not hold are left
   * out. Where the queue is elsewhere (PostgreSQL mode) this is one read of it, and `live` knows nothing.
   */
  liveMany(generations: readonly Generation[]): Promise<Map<string, LiveState>>;
  /**
   * Stops a waiting or rendering task: it ends failed with error code "cancelled", so its quota unit is given
   * back like any failed task's. Resolves with the task as saved; one that finished first is returned as it is.
   */
  cancel(generation: Generation): Promise<Generation>;
  /** True while the worker pool is up. */
  healthy(): boolean;
  /** Stop taking work; running renders finish (up to a grace period) or go back to pending for the next start. */
  close(): Promise<void>;
}

/** liveMany for a queue that holds its tasks in memory: each one's `live`, no I/O. */
export function liveOneByOne(
  queue: Pick<JobQueue, 'live'>,
  generations: readonly Generation[],
): Promise<Map<string, LiveState>> {
  const states = new Map<string, LiveState>();
  for (const generation of generations) {
    const state = queue.live(generation.id);
    if (state) states.set(generation.id, state);
  }
  return Promise.resolve(states);
}
