/**
 * Takes render jobs from the PostgreSQL queue and runs them on this process's render pool (the one module that
 * owns worker threads): what `tunesmith worker` runs, and `tunesmith serve` too when it has render threads.
 *
 * A job can run twice: pg-boss hands it to another worker when this one's heartbeats stop (a `kill -9`, a frozen
 * machine), and the first may yet finish; runTask's guards make the older run write nothing.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Job, PgBoss } from 'pg-boss';
import type { GenerationLifecycle } from '../../domain/generations/lifecycle.ts';
import { silentLogger, type Logger } from '../../log.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import type { Repository } from '../../store/repository.ts';
import type { Generation } from '../../domain/model.ts';
import { taskIds } from '../render-task.ts';
import { runTask, type RenderPoolLike, type TaskRunner } from '../run-task.ts';
import { RENDER_QUEUE, type RenderJob } from './render-queue.ts';
import { RenderProgress } from './render-progress.ts';
import type { Queryable } from '../../store/postgres/index.ts';

export interface RenderWorkerOptions {
  boss: PgBoss;
  repository: Repository;
  blobs: BlobStore;
  lifecycle: GenerationLifecycle;
  pool: RenderPoolLike;
  /** Where the render's progress is written for every API node to show (the repository's pool). Absent: not written. */
  db?: Queryable;
  /** Starts a task gets before it is failed; the queue's retry limit is this (one pickup more, to fail it). @default 3 */
  maxAttempts?: number;
  logger?: Logger;
  clock?: () => number;
  /** The queues it takes from: the shared one, or accounts' dedicated ones (openDedicatedQueues). @default [RENDER_QUEUE] */
  queues?: readonly string[];
  /** How long close() lets running renders finish before their jobs go back to the queue. @default 30000 */
  graceMs?: number;
}

export interface RenderWorker {
  /** Stops taking jobs; running renders finish (up to the grace) or their jobs are handed back for another worker. */
  close(): Promise<void>;
}

/** Retried by pg-boss: the task goes back to the queue (a crashed render thread, a newer attempt already running). */
class RetryLater extends Error {
  override name = 'RetryLater';
}

export async function startRenderWorker(options: RenderWorkerOptions): Promise<RenderWorker> {
  const runner = new JobRunner(options);
  const queues = options.queues ?? [RENDER_QUEUE];
  const workers = await Promise.all(
    queues.map(async (queue) => ({
      queue,
      id: await options.boss.work<RenderJob>(
        queue,
        // One job per render thread. New jobs wake the worker through NOTIFY; the polls are the floor should a
        // notification be missed (a dropped listener connection), and short, as a waiting render is what users notice.
        {
          localConcurrency: options.pool.size,
          batchSize: 1,
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: 2,
        },
        async ([job]) => {
          if (job) await runner.run(job);
        },
      ),
    })),
  );
  let closing: Promise<void> | null = null;
  return {
    close() {
      // Past the grace, the queue's stop fails what still runs here, and another worker takes it at once.
      closing ??= Promise.race([
        Promise.all(workers.map(({ queue, id }) => options.boss.offWork(queue, { id, wait: true }))).then(
          () => undefined,
        ),
        delay(options.graceMs ?? 30_000, undefined, { ref: false }),
      ]);
      return closing;
    },
  };
}

class JobRunner {
  readonly #runner: TaskRunner;
  readonly #progress: RenderProgress | undefined;

  constructor(options: RenderWorkerOptions) {
    const logger = options.logger ?? silentLogger();
    this.#runner = {
      repository: options.repository,
      blobs: options.blobs,
      lifecycle: options.lifecycle,
      pool: options.pool,
      maxAttempts: options.maxAttempts ?? 3,
      logger,
      clock: options.clock ?? Date.now,
    };
    this.#progress = options.db ? new RenderProgress(options.db) : undefined;
  }

  /** Runs the job's task; throws for pg-boss to run the job again (or, handed back, to give it to another worker). */
  async run(job: Job<RenderJob>): Promise<void> {
    const progress = this.#progress;
    const outcome = await runTask(this.#runner, job.data, {
      signal: job.signal,
      // Aborted: this worker no longer holds the job (its heartbeat lapsed, or a shutdown handed it back).
      stopReason: () => 'handed-back',
      giveBackStart: false,
      ...(progress
        ? {
            progress: (started: Generation) =>
              progress.reporter(started.id, started.attempts, (error) => {
                this.#runner.logger.warn({ ...taskIds(started), err: error }, "could not record the render's progress");
              }),
          }
        : {}),
    });
    if (outcome.kind === 'skipped' && outcome.changed)
      throw new RetryLater(`generation ${job.data.id} changed before its render started`);
    if (outcome.kind === 'retry') throw new RetryLater('the render thread crashed');
    if (outcome.kind === 'handed-back') throw outcome.error;
  }
}
