/**
 * queue_position and estimated_time in PostgreSQL mode. The waiting jobs come from pg-boss's own findJobs, in the
 * order its workers take them (priority first, then the oldest); the tasks at work are the started ones.
 * The estimate is the in-process queue's
 * (renderEstimate: a fixed cost per track plus a cost per audio second, times the stems and rate factors), its
 * per-second cost learned from the generations completed most recently on any node, and spreads the work ahead
 * over the threads at work.
 *
 * Listing every waiting job on each read cost 0.3 s with 5,000 waiting (bench/queue-position.ts), so each queue's
 * listing is kept (WaitingJobs): a read lists only the jobs sent since (findJobs `after` the newest one known),
 * and which of the kept ones still wait is what the generations say, read with their work in the one query the
 * estimate needs anyway (a worker that takes a job starts its task; a job's priority and age never change). The
 * whole listing is read again every LISTING_TTL_MS. A job back from a dead worker ('retry') waits with its task
 * started: it is counted at work until a worker starts it again.
 *
 * Per page of tasks: one short listing per queue, one read of the tasks waiting ahead and of those at work,
 * plus the speed, cached for SPEED_TTL_MS because it moves slowly.
 */
import type { PgBoss } from 'pg-boss';
import type { Generation } from '../../domain/model.ts';
import type { Queryable } from '../../store/postgres/index.ts';
import { DEFAULT_SPEED, learnedPerAudioSecond, renderEstimate, timeLeft, type SpeedModel } from '../render-speed.ts';
import type { LiveState } from '../types.ts';
import { queueOf, RENDER_QUEUE } from './render-queue.ts';
import { RenderProgress } from './render-progress.ts';
import { WaitingJobs } from './waiting-jobs.ts';

/** How many of the latest completed renders the per-second cost is the mean of. */
const SPEED_SAMPLE = 20;
const SPEED_TTL_MS = 5_000;
const LISTING_TTL_MS = 30_000;

/** What an estimate needs of a task (see renderEstimate). */
type Work = Pick<Generation, 'id' | 'duration' | 'stems' | 'encoding'>;

export class QueueEstimates {
  readonly #db: Queryable;
  readonly #boss: PgBoss;
  readonly #clock: () => number;
  readonly #progress: RenderProgress;
  #speed: { model: SpeedModel; at: number } | undefined;
  /** Each queue's waiting jobs, kept between reads. */
  readonly #queues = new Map<string, WaitingJobs>();

  constructor(db: Queryable, boss: PgBoss, options: { clock?: () => number } = {}) {
    this.#db = db;
    this.#boss = boss;
    this.#progress = new RenderProgress(db);
    this.#clock = options.clock ?? Date.now;
  }

  /** The live state of each of `generations` that has a job waiting or running; the others are left out. */
  async live(generations: readonly Generation[]): Promise<Map<string, LiveState>> {
    const states = new Map<string, LiveState>();
    const open = generations.filter((g) => g.status === 'pending' || g.status === 'processing');
    if (open.length === 0) return states;
    const asked = new Set(open.map((g) => g.id));
    const [model, listed] = await Promise.all([this.#model(), this.#waitingLines(open)]);
    // Each line up to the last task asked about: whose jobs wait there still is what the generations say.
    const heads = listed.map(({ jobs, line }) => ({
      jobs,
      head: line.slice(0, line.findLastIndex((id) => asked.has(id)) + 1),
    }));
    const [waiting, active, progress] = await Promise.all([
      this.#stillWaiting(heads.flatMap(({ head }) => head)),
      this.#atWork(),
      this.#progress.of(open.filter((g) => g.status === 'processing').map((g) => g.id)),
    ]);
    const lines = heads.map(({ jobs, head }) => {
      jobs.forget(head.filter((id) => !waiting.has(id)));
      return head.filter((id) => waiting.has(id));
    });
    // Each waiting task's line (the shared queue, or its account's dedicated one) and its place in it.
    const place = new Map<string, { line: string[]; at: number }>();
    for (const line of lines) {
      for (const [at, id] of line.entries()) place.set(id, { line, at });
    }
    // A task asked about whose job is no longer listed but which is not started yet: a worker has just taken it.
    const atWork = new Set(active.map((task) => task.id));
    for (const generation of open) {
      if (!generation.started_at && !place.has(generation.id) && !atWork.has(generation.id))
        active.push({ ...generation, elapsed: 0 });
    }
    const estimate = (task: Work) => renderEstimate(model, task);
    // A running render's time left, as the in-process queue reckons it (timeLeft). The other renders at work are
    // counted without their progress.
    const activeLeft = active.reduce((sum, task) => sum + timeLeft(estimate(task), task.elapsed, 0), 0);
    const threads = Math.max(1, active.length);
    for (const task of active) {
      if (!asked.has(task.id)) continue;
      const done = progress.get(task.id) ?? 0;
      states.set(task.id, {
        queue_position: 0,
        progress: done,
        estimated_time: timeLeft(estimate(task), task.elapsed, done),
      });
    }
    for (const generation of open) {
      const found = place.get(generation.id);
      if (!found) continue;
      const ahead = found.line.slice(0, found.at).reduce((sum, id) => {
        const task = waiting.get(id);
        return sum + (task ? estimate(task) : 0);
      }, 0);
      states.set(generation.id, {
        queue_position: found.at + 1,
        progress: 0,
        estimated_time: (activeLeft + ahead) / threads + estimate(generation),
      });
    }
    return states;
  }

  /**
   * The waiting lines these tasks are in (the shared queue, accounts' dedicated ones), each in pg-boss's order,
   * as kept: listed again in full when a task asked about waits but is not in its line (sent since on another
   * node, or before this node's listing in the same instant).
   */
  async #waitingLines(tasks: readonly Generation[]): Promise<{ jobs: WaitingJobs; line: string[] }[]> {
    const accounts = [...new Set(tasks.map((task) => task.account_id))];
    const queues = new Map(
      await Promise.all(accounts.map(async (account) => [account, await queueOf(this.#boss, account)] as const)),
    );
    const byQueue = new Map<string, Generation[]>();
    for (const task of tasks) {
      const queue = queues.get(task.account_id) ?? RENDER_QUEUE;
      byQueue.set(queue, [...(byQueue.get(queue) ?? []), task]);
    }
    return Promise.all(
      [...byQueue].map(async ([queue, asked]) => {
        let jobs = this.#queues.get(queue);
        if (!jobs) {
          jobs = new WaitingJobs(this.#boss, queue, { clock: this.#clock, ttlMs: LISTING_TTL_MS });
          this.#queues.set(queue, jobs);
        }
        const read = async () => {
          const line = await jobs.line();
          const listed = new Set(line);
          const missing = asked.some((task) => (task.status === 'pending' || !task.started_at) && !listed.has(task.id));
          return missing ? jobs.line({ relist: true }) : line;
        };
        // A dedicated queue deleted since this node listed the queues (render-queue.ts ROUTES_TTL_MS) has no line.
        const line = await read().catch((error: unknown) => {
          if (queue === RENDER_QUEUE) throw error;
          this.#queues.delete(queue);
          return [];
        });
        return { jobs, line };
      }),
    );
  }

  /** The tasks at work: started and not finished (a worker took their job), with the seconds since their start. */
  async #atWork(): Promise<(Work & { elapsed: number })[]> {
    const { rows } = await this.#db.query(
      `SELECT id, duration, stems, encoding, coalesce(greatest(0, extract(epoch FROM now() - started_at)), 0)::float8 AS elapsed
         FROM generations
        WHERE status = 'processing' AND started_at IS NOT NULL AND deleted_at IS NULL`,
    );
    return rows as (Work & { elapsed: number })[];
  }

  /**
   * Those of these tasks still waiting, with their work: not started (a task is processing from its create on, and
   * a worker that takes its job starts it), or pending (handed back by a worker that stopped).
   */
  async #stillWaiting(ids: readonly string[]): Promise<Map<string, Work>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.#db.query(
      `SELECT id, duration, stems, encoding FROM generations WHERE id = ANY($1) AND deleted_at IS NULL
          AND (status = 'pending' OR (status = 'processing' AND started_at IS NULL))`,
      [ids],
    );
    return new Map((rows as Work[]).map((row) => [row.id, row]));
  }

  async #model(): Promise<SpeedModel> {
    const now = this.#clock();
    if (this.#speed && now - this.#speed.at < SPEED_TTL_MS) return this.#speed.model;
    const { rows } = await this.#db.query(
      `SELECT extract(epoch FROM completed_at - started_at)::float8 AS wall_seconds, duration, stems, encoding
         FROM generations
        WHERE status = 'completed' AND started_at IS NOT NULL AND completed_at IS NOT NULL AND duration > 0
        ORDER BY completed_at DESC LIMIT $1`,
      [SPEED_SAMPLE],
    );
    const learned = learnedPerAudioSecond(rows as (Work & { wall_seconds: number })[]);
    const model = { ...DEFAULT_SPEED, perAudioSecond: learned ?? DEFAULT_SPEED.perAudioSecond };
    this.#speed = { model, at: now };
    return model;
  }
}
