/**
 * One pg-boss queue's waiting jobs, kept between reads of queue_position (queue-estimates.ts). A read lists only
 * the jobs sent since the newest one kept (findJobs `after` it: oldest first, so that is the tail), and the whole
 * queue again when asked or when the listing is older than `ttlMs`. Jobs that were taken stay until the caller,
 * which knows from the generations, forgets them. A job's priority and age never change, so what is kept stays
 * in the right order.
 */
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import { MAX_LISTED, type RenderJob } from './render-queue.ts';

interface Waiting {
  task: string;
  job: string;
  priority: number;
  createdOn: number;
}

export class WaitingJobs {
  readonly #boss: PgBoss;
  readonly #queue: string;
  readonly #clock: () => number;
  readonly #ttlMs: number;
  readonly #jobs = new Map<string, Waiting>();
  /** The newest job kept, in findJobs' order (created_on, id): where the next listing goes on from. */
  #newest: Waiting | undefined;
  #listedAt = Number.NEGATIVE_INFINITY;

  constructor(boss: PgBoss, queue: string, options: { clock: () => number; ttlMs: number }) {
    this.#boss = boss;
    this.#queue = queue;
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs;
  }

  /** The tasks of the jobs kept, in the order pg-boss hands them out (priority DESC, then created_on, id). */
  async line(options: { relist?: boolean } = {}): Promise<string[]> {
    const now = this.#clock();
    if (options.relist || !this.#newest || now - this.#listedAt >= this.#ttlMs) await this.#relist(now);
    else await this.#listNew(this.#newest.job, now);
    return [...this.#jobs.values()].sort(inLine).map((waiting) => waiting.task);
  }

  /** Drops these tasks' jobs: no longer waiting. */
  forget(tasks: Iterable<string>): void {
    const gone = new Set(tasks);
    if (gone.size === 0) return;
    for (const [job, waiting] of this.#jobs) if (gone.has(waiting.task)) this.#jobs.delete(job);
  }

  async #relist(now: number): Promise<void> {
    const jobs = await this.#boss.findJobs<RenderJob>(this.#queue, { queued: true, limit: MAX_LISTED });
    this.#jobs.clear();
    this.#newest = undefined;
    this.#listedAt = now;
    this.#keep(jobs);
  }

  async #listNew(after: string, now: number): Promise<void> {
    let jobs: JobWithMetadata<RenderJob>[];
    try {
      jobs = await this.#boss.findJobs<RenderJob>(this.#queue, { queued: true, limit: MAX_LISTED, after });
    } catch {
      // The job gone (deleted with its queue, or by pg-boss's cleanup a day after it ended): list them all.
      return this.#relist(now);
    }
    this.#keep(jobs);
  }

  #keep(jobs: readonly JobWithMetadata<RenderJob>[]): void {
    for (const job of jobs) {
      const waiting = {
        task: job.data.id,
        job: job.id,
        priority: job.priority,
        createdOn: new Date(job.createdOn).getTime(),
      };
      this.#jobs.set(job.id, waiting);
      if (!this.#newest || inCreatedOrder(this.#newest, waiting) < 0) this.#newest = waiting;
    }
  }
}

const inCreatedOrder = (a: Waiting, b: Waiting): number =>
  a.createdOn - b.createdOn || (a.job < b.job ? -1 : a.job > b.job ? 1 : 0);

const inLine = (a: Waiting, b: Waiting): number => b.priority - a.priority || inCreatedOrder(a, b);
