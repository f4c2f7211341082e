/**
 * Takes render jobs from the PostgreSQL queue and runs them on this process's render pool (the one module that
 * owns worker threads): what `tunesmith worker` runs, and `tunesmith serve` too when it has render threads.
 *
 * A job can run twice: pg-boss hands it to another worker when this one's heartbeats stop (a `kill -9`, a frozen
 * machine), and the first may yet finish. Every write is therefore a transition guarded by the attempt it belongs
 * to (the generation's `attempts` as this run set it, status processing): whichever run is no longer the newest
 * writes nothing, so a task completes once and causes one event.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Job, PgBoss } from 'pg-boss';
import { RenderAbortedError, WorkerCrashedError, type RenderedTrack } from '../../../engine/index.ts';
import { allKeys, trackFiles } from '../../domain/generations/files.ts';
import type { GenerationLifecycle } from '../../domain/generations/lifecycle.ts';
import { isTerminal } from '../../domain/generations/present.ts';
import { silentLogger, type Logger } from '../../log.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import type { GenerationPatch, Repository } from '../../store/repository.ts';
import type { Generation } from '../../domain/model.ts';
import type { RenderPoolLike } from '../job-queue.ts';
import {
  INTERRUPTED_TOO_OFTEN,
  completedPatch,
  completionFailure,
  crashedTooOften,
  failedPatch,
  logFailure,
  renderFailure,
  requestOf,
  startPatch,
  taskIds,
  type TaskFailure,
} from '../render-task.ts';
import { spliceSourceOf } from '../splice-source.ts';
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
  const workerId = await options.boss.work<RenderJob>(
    RENDER_QUEUE,
    // One job per render thread. New jobs wake the worker through NOTIFY; the polls are the floor should a
    // notification be missed (a dropped listener connection), and short, as a waiting render is what users notice.
    { localConcurrency: options.pool.size, batchSize: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2 },
    async ([job]) => {
      if (job) await runner.run(job);
    },
  );
  let closing: Promise<void> | null = null;
  return {
    close() {
      // Past the grace, the queue's stop fails what still runs here, and another worker takes it at once.
      closing ??= Promise.race([
        options.boss.offWork(RENDER_QUEUE, { id: workerId, wait: true }),
        delay(options.graceMs ?? 30_000, undefined, { ref: false }),
      ]);
      return closing;
    },
  };
}

class JobRunner {
  readonly #o: RenderWorkerOptions;
  readonly #maxAttempts: number;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #progress: RenderProgress | undefined;

  constructor(options: RenderWorkerOptions) {
    this.#o = options;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#logger = options.logger ?? silentLogger();
    this.#clock = options.clock ?? Date.now;
    this.#progress = options.db ? new RenderProgress(options.db) : undefined;
  }

  async run(job: Job<RenderJob>): Promise<void> {
    const found = await this.#o.repository.getGeneration(job.data.account_id, job.data.id);
    // Deleted, cancelled, or finished by an earlier run whose job was not marked done: nothing to do.
    if (!found || isTerminal(found.status)) return;
    if (found.attempts >= this.#maxAttempts) {
      await this.#fail(found, (g) => g.attempts === found.attempts && !isTerminal(g.status), INTERRUPTED_TOO_OFTEN);
      return;
    }
    const pickedUp = this.#clock();
    const started = await this.#o.lifecycle.transitionIf(
      found.id,
      (g) => !isTerminal(g.status) && g.attempts === found.attempts,
      startPatch(found, new Date(pickedUp)),
    );
    if (!started) throw new RetryLater(`generation ${found.id} changed before its render started`);
    const mine = (g: Generation) => g.status === 'processing' && g.attempts === started.attempts;
    this.#logger.info(
      {
        ...taskIds(started),
        attempt: started.attempts,
        pickup_ms: Math.max(0, pickedUp - Date.parse(started.created_at)),
      },
      'task started',
    );

    let track: RenderedTrack;
    try {
      const splice = await spliceSourceOf(started, this.#o.repository, this.#o.blobs);
      const onProgress = this.#progress?.reporter(started.id, started.attempts, (error) => {
        this.#logger.warn({ ...taskIds(started), err: error }, "could not record the render's progress");
      });
      track = await this.#o.pool.render(requestOf(started), {
        signal: job.signal,
        ...(splice ? { splice } : {}),
        ...(onProgress ? { onProgress } : {}),
      });
    } catch (error) {
      await this.#renderFailed(started, mine, error);
      return;
    }
    await this.#complete(started, mine, track, pickedUp);
  }

  async #renderFailed(generation: Generation, mine: (g: Generation) => boolean, error: unknown): Promise<void> {
    // Aborted: this worker no longer holds the job (its heartbeat lapsed, or a shutdown handed it back).
    if (error instanceof RenderAbortedError) throw error;
    if (error instanceof WorkerCrashedError && generation.attempts < this.#maxAttempts) {
      this.#logger.warn(
        { ...taskIds(generation), attempt: generation.attempts, err: error },
        'render worker crashed; the task will be retried',
      );
      await this.#o.lifecycle.transitionIf(generation.id, mine, { status: 'pending' });
      throw new RetryLater('the render thread crashed');
    }
    await this.#fail(
      generation,
      mine,
      error instanceof WorkerCrashedError ? crashedTooOften(generation) : renderFailure(generation, error),
    );
  }

  async #complete(
    generation: Generation,
    mine: (g: Generation) => boolean,
    track: RenderedTrack,
    startedAt: number,
  ): Promise<void> {
    const { files, puts } = trackFiles(generation, track);
    let saved: Generation | undefined;
    try {
      await Promise.all(puts.map(({ key, bytes, contentType }) => this.#o.blobs.put(key, bytes, { contentType })));
      saved = await this.#o.lifecycle.transitionIf(
        generation.id,
        mine,
        completedPatch(track, files, new Date(this.#clock())),
      );
    } catch (error) {
      // Half-stored audio goes only when the task is still this run's: otherwise the keys are the winner's files.
      const failed = await this.#fail(generation, mine, completionFailure(generation, error), {
        files: null,
        title: null,
        metadata: null,
      });
      if (failed)
        await Promise.all(
          [...allKeys(generation), ...puts.map(({ key }) => key)].map((key) =>
            this.#o.blobs.delete(key).catch(() => undefined),
          ),
        );
      return;
    }
    if (!saved) {
      this.#logger.warn(
        { ...taskIds(generation), attempt: generation.attempts },
        'render finished after a newer attempt took the task over (or it was cancelled); its result is dropped',
      );
      return;
    }
    this.#logger.info(
      { ...taskIds(generation), render_ms: this.#clock() - startedAt, audio_seconds: track.audioSeconds },
      'task completed',
    );
  }

  /** Ends the task failed when it still is in the state `expected`; true when it was. */
  async #fail(
    generation: Generation,
    expected: (g: Generation) => boolean,
    failure: TaskFailure,
    patch: GenerationPatch = {},
  ): Promise<boolean> {
    const failed = await this.#o.lifecycle.transitionIf(
      generation.id,
      expected,
      failedPatch(failure, new Date(this.#clock()), patch),
    );
    if (failed) logFailure(this.#logger, generation, failure);
    return failed !== undefined;
  }
}
