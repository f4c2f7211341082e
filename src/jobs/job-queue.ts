/**
 * Feeds accepted generations to the render pool: fairly between accounts, never more at once than the
 * pool has threads, and with every state change persisted so a restart can resume the work.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { silentLogger, type Logger } from '../log.ts';
import type { GenerationLifecycle } from '../domain/generations/lifecycle.ts';
import type { BlobStore } from '../store/blob-store.ts';
import type { GenerationPatch, Repository } from '../store/repository.ts';
import type { Generation } from '../domain/model.ts';
import { limitsFor } from '../domain/plans.ts';
import { FairQueue } from './fair-queue.ts';
import { DEFAULT_SPEED, RenderSpeed, renderEstimate, timeLeft, workFactor, type SpeedModel } from './render-speed.ts';
import { liveOneByOne, type JobQueue, type LiveState } from './types.ts';
import {
  CANCELLED,
  logFailure,
  INTERRUPTED_TOO_OFTEN,
  failedPatch,
  taskIds as ids,
  type TaskFailure,
} from './render-task.ts';
import { runTask, type RenderPoolLike, type TaskRunner } from './run-task.ts';

export type { RenderPoolLike } from './run-task.ts';

export interface JobQueueOptions {
  repository: Repository;
  blobs: BlobStore;
  /** Every change of a task's state goes through it, with the webhook event it causes. */
  lifecycle: GenerationLifecycle;
  pool: RenderPoolLike;
  /** Milliseconds now; a test seam for estimates. */
  clock?: () => number;
  /** How long close() lets running renders finish before sending them back to pending. @default 30000 */
  graceMs?: number;
  /** Starts a task gets before it is failed. @default 3 */
  maxAttempts?: number;
  /** The render-speed model before any render has been measured on this data dir. @default DEFAULT_SPEED */
  speedPrior?: SpeedModel;
  /**
   * Asked at each estimate instead of `speedPrior` until a render has been measured, given how many renders run
   * now: the server passes the machine's load (render-speed.ts loadedSpeed), tests leave it out.
   */
  coldSpeed?: (rendering: number) => SpeedModel;
  /** One line per task transition (queued, started, completed, failed), and the render errors in full. */
  logger?: Logger;
}

export interface JobQueueHandle extends JobQueue {
  /** Resolves when nothing waits or renders (tests and shutdown use it). */
  idle(): Promise<void>;
  /** The current render-speed estimate: wall seconds per audio second, on top of a fixed cost per track. */
  readonly speed: number;
  /** Expected wall seconds to render a track of this many seconds. */
  estimate(audioSeconds: number): number;
}

interface Running {
  generation: Generation;
  startedAt: number;
  progress: number;
  expectedSeconds: number;
  controller: AbortController;
  /** Set when the task's owner cancels it. */
  cancelled: boolean;
  done: Promise<void>;
}

/**
 * The per-second cost learned on this data dir, kept as a setting so the first estimates after a start are as
 * good as the last (values from before the overhead was modelled are ignored).
 */
async function readSpeed(repository: Repository): Promise<number | undefined> {
  try {
    const value = ((await repository.settings.get('render-speed')) as { per_audio_second?: unknown } | undefined)
      ?.per_audio_second;
    return typeof value === 'number' && value > 0 && value < 100 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The rank of an account whose plan is not known (every plan's rank is a small positive number). */
const DEFAULT_RANK = 0;

const roundSeconds = (seconds: number): number => Math.max(0, Math.round(seconds * 10) / 10);

/** Creates the queue and resumes every unfinished task found in the store (restart recovery). */
export async function createJobQueue(options: JobQueueOptions): Promise<JobQueueHandle> {
  const queue = new RenderQueue(options, await readSpeed(options.repository));
  await queue.recover();
  return queue;
}

class RenderQueue implements JobQueueHandle {
  readonly #repository: Repository;
  readonly #lifecycle: GenerationLifecycle;
  readonly #pool: RenderPoolLike;
  readonly #clock: () => number;
  readonly #graceMs: number;
  readonly #maxAttempts: number;
  readonly #logger: Logger;
  readonly #speed: RenderSpeed;
  readonly #coldSpeed: ((rendering: number) => SpeedModel) | undefined;
  readonly #runner: TaskRunner;
  /** Each account's plan rank, as its latest task was queued with (or read at recovery). */
  readonly #ranks = new Map<string, number>();
  readonly #waiting = new FairQueue<Generation>((account) => this.#ranks.get(account) ?? DEFAULT_RANK);
  readonly #running = new Map<string, Running>();
  #idleWaiters: (() => void)[] = [];
  #closing: Promise<void> | null = null;

  constructor(options: JobQueueOptions, learned: number | undefined) {
    this.#repository = options.repository;
    this.#lifecycle = options.lifecycle;
    this.#pool = options.pool;
    this.#clock = options.clock ?? Date.now;
    this.#graceMs = options.graceMs ?? 30_000;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#logger = options.logger ?? silentLogger();
    this.#runner = {
      repository: options.repository,
      blobs: options.blobs,
      lifecycle: options.lifecycle,
      pool: options.pool,
      maxAttempts: this.#maxAttempts,
      logger: this.#logger,
      clock: this.#clock,
    };
    this.#coldSpeed = options.coldSpeed;
    const prior = options.speedPrior ?? DEFAULT_SPEED;
    this.#speed = new RenderSpeed(
      learned === undefined ? prior : { ...prior, perAudioSecond: learned },
      learned !== undefined,
    );
  }

  get speed(): number {
    return this.#speed.perAudioSecond;
  }

  estimate(audioSeconds: number): number {
    return this.#speed.estimate(audioSeconds);
  }

  async recover(): Promise<void> {
    const resumed: Generation[] = [];
    await Promise.all(
      (await this.#repository.unfinishedGenerations()).map(async (generation) => {
        // A task that was mid-render through maxAttempts crashes of the whole server is the likely cause.
        if (generation.attempts >= this.#maxAttempts) {
          await this.#fail(generation, INTERRUPTED_TOO_OFTEN);
          return;
        }
        resumed.push(
          generation.status === 'pending' ? generation : await this.#transition(generation, { status: 'pending' }),
        );
      }),
    );
    for (const accountId of new Set(resumed.map((generation) => generation.account_id))) {
      const account = await this.#repository.getAccount(accountId);
      if (account) this.#ranks.set(accountId, limitsFor(account).priority);
    }
    resumed.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
    for (const generation of resumed) this.#waiting.push(generation);
    if (resumed.length > 0) this.#logger.info({ tasks: resumed.length }, 'resuming unfinished tasks');
    this.#pump();
  }

  enqueue(generation: Generation, rank?: number): void {
    if (this.#closing || this.#running.has(generation.id) || this.#waiting.has(generation.id)) return;
    if (rank !== undefined && this.#ranks.get(generation.account_id) !== rank) {
      this.#ranks.set(generation.account_id, rank);
      this.#waiting.reranked();
    }
    this.#logger.info(
      { ...ids(generation), duration: generation.duration, queue_length: this.#waiting.size + 1 },
      'task queued',
    );
    this.#waiting.push(generation);
    this.#pump();
  }

  live(id: string): LiveState | undefined {
    const running = this.#running.get(id);
    if (running) {
      return { queue_position: 0, progress: running.progress, estimated_time: roundSeconds(this.#remaining(running)) };
    }
    const position = this.#waiting.position(id);
    if (position === undefined) return undefined;
    const order = this.#waiting.order();
    const task = order[position];
    if (!task) throw new Error(`generation ${id} has waiting position ${position} but is not in the waiting order`);
    return {
      queue_position: position + 1,
      progress: 0,
      estimated_time: roundSeconds(this.#startsIn(order.slice(0, position)) + this.#estimateOf(task)),
    };
  }

  liveMany(generations: readonly Generation[]): Promise<Map<string, LiveState>> {
    return liveOneByOne(this, generations);
  }

  async cancel(generation: Generation): Promise<Generation> {
    const running = this.#running.get(generation.id);
    if (running) {
      running.cancelled = true;
      running.controller.abort();
      await running.done;
    } else {
      this.#waiting.remove(generation.id);
      const current = await this.#repository.getGeneration(generation.account_id, generation.id);
      if (current && (current.status === 'pending' || current.status === 'processing'))
        await this.#fail(current, { code: 'cancelled', message: CANCELLED });
      this.#settleIdle();
    }
    return (await this.#repository.getGeneration(generation.account_id, generation.id)) ?? generation;
  }

  healthy(): boolean {
    return this.#closing === null && this.#pool.healthy();
  }

  idle(): Promise<void> {
    if (this.#running.size === 0 && this.#waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const finished = Promise.all([...this.#running.values()].map((running) => running.done));
    const grace = new AbortController();
    const timedOut = await Promise.race([
      finished.then(() => false),
      delay(this.#graceMs, true, { signal: grace.signal }).catch(() => false),
    ]);
    grace.abort();
    if (timedOut) {
      for (const running of this.#running.values()) {
        running.controller.abort();
      }
      await finished;
    }
    await Promise.all(
      this.#waiting
        .drain()
        .map((generation) =>
          generation.status === 'pending'
            ? undefined
            : this.#transition(generation, { status: 'pending' }).catch(() => undefined),
        ),
    );
    this.#settleIdle();
  }

  /** Starts waiting tasks while the pool has free threads. */
  #pump(): void {
    while (this.#closing === null && this.#running.size < this.#pool.size) {
      const generation = this.#waiting.shift();
      if (!generation) break;
      this.#start(generation);
    }
    this.#settleIdle();
  }

  #start(generation: Generation): void {
    const running: Running = {
      generation,
      startedAt: this.#clock(),
      progress: 0,
      expectedSeconds: this.#estimateOf(generation),
      controller: new AbortController(),
      cancelled: false,
      done: Promise.resolve(),
    };
    this.#running.set(generation.id, running);
    running.done = this.#render(running)
      .catch((error: unknown) => this.#logger.error({ ...ids(generation), err: error }, 'task could not be saved'))
      .finally(() => {
        this.#running.delete(generation.id);
        this.#pump();
      });
  }

  async #render(running: Running): Promise<void> {
    const outcome = await runTask(this.#runner, running.generation, {
      signal: running.controller.signal,
      stopReason: () => (running.cancelled ? 'cancelled' : 'handed-back'),
      giveBackStart: true,
      progress: () => (fraction) => {
        running.progress = Math.min(1, Math.max(running.progress, fraction));
      },
    });
    if (outcome.kind === 'retry') {
      if (outcome.generation && this.#closing === null) this.#waiting.pushFront(outcome.generation);
      return;
    }
    if (outcome.kind !== 'completed') return;
    // Stems and hi-res audio cost more than a plain render: the model learns the plain speed from them.
    this.#speed.record(outcome.renderSeconds, outcome.track.audioSeconds, workFactor(outcome.generation));
    // Only a better estimate for the next start: not worth failing anything over.
    await this.#repository.settings
      .put('render-speed', {
        per_audio_second: this.#speed.perAudioSecond,
        overhead_seconds: this.#speed.overheadSeconds,
      })
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'could not save the render speed'));
  }

  /** Ends a task that is not rendering failed (a cancel, a restart's task interrupted too often). */
  async #fail(generation: Generation, failure: TaskFailure): Promise<void> {
    await this.#transition(generation, failedPatch(failure, new Date(this.#clock())));
    logFailure(this.#logger, generation, failure);
  }

  /** Saves a change of state, with the webhook event it causes (the lifecycle's one transaction). */
  #transition(generation: Generation, patch: GenerationPatch): Promise<Generation> {
    return this.#lifecycle.transition(generation.id, patch);
  }

  /** Expected wall seconds of a task's render: its length, stems and audio options. */
  #estimateOf(generation: Generation): number {
    const cold = this.#speed.learned ? undefined : this.#coldSpeed?.(this.#running.size);
    return renderEstimate(cold ?? this.#speed, generation);
  }

  /** Seconds left for a running render (see timeLeft). */
  #remaining(running: Running): number {
    return timeLeft(running.expectedSeconds, (this.#clock() - running.startedAt) / 1000, running.progress);
  }

  /**
   * Seconds until a thread is free for the task behind `ahead`: list-schedules the running renders'
   * remaining time and the tasks ahead onto the pool's threads.
   */
  #startsIn(ahead: readonly Generation[]): number {
    const threads = Array.from({ length: this.#pool.size }, () => 0);
    [...this.#running.values()].forEach((running, index) => {
      const thread = index % threads.length;
      threads[thread] = (threads[thread] ?? 0) + this.#remaining(running);
    });
    for (const generation of ahead) {
      const earliest = threads.indexOf(Math.min(...threads));
      threads[earliest] = (threads[earliest] ?? 0) + this.#estimateOf(generation);
    }
    return Math.min(...threads);
  }

  #settleIdle(): void {
    if (this.#running.size > 0 || (this.#waiting.size > 0 && this.#closing === null)) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
