/**
 * queue_position and estimated_time in PostgreSQL mode. The waiting jobs come from pg-boss's own findJobs, in the
 * order its workers take them (priority first, then the oldest); the tasks at work are the processing generations
 * whose job is not waiting. The estimate is the in-process queue's
 * (renderEstimate: a fixed cost per track plus a cost per audio second, times the stems and rate factors), its
 * per-second cost learned from the generations completed most recently on any node, and spreads the work ahead
 * over the threads at work.
 *
 * Per page of tasks: one listing of the waiting jobs, one read of the tasks at work and of those waiting ahead,
 * plus the speed, cached for SPEED_TTL_MS because it moves slowly.
 */
import type { PgBoss } from 'pg-boss';
import type { Generation } from '../../domain/model.ts';
import type { Queryable } from '../../store/postgres/index.ts';
import { DEFAULT_SPEED, learnedPerAudioSecond, renderEstimate, timeLeft, type SpeedModel } from '../render-speed.ts';
import type { LiveState } from '../types.ts';
import { MAX_LISTED, queueOf, type RenderJob } from './render-queue.ts';
import { RenderProgress } from './render-progress.ts';

/** How many of the latest completed renders the per-second cost is the mean of. */
const SPEED_SAMPLE = 20;
const SPEED_TTL_MS = 5_000;

/** What an estimate needs of a task (see renderEstimate). */
type Work = Pick<Generation, 'id' | 'duration' | 'stems' | 'encoding'>;

export class QueueEstimates {
  readonly #db: Queryable;
  readonly #boss: PgBoss;
  readonly #clock: () => number;
  readonly #progress: RenderProgress;
  #speed: { model: SpeedModel; at: number } | undefined;

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
    const [model, lines] = await Promise.all([this.#model(), this.#waitingLines(open)]);
    // Each waiting task's line (the shared queue, or its account's dedicated one) and its place in it.
    const place = new Map<string, { line: string[]; at: number }>();
    for (const line of lines) {
      for (const [at, id] of line.entries()) place.set(id, { line, at });
    }
    const aheadIds = new Set(
      open.flatMap((g) => {
        const found = place.get(g.id);
        return found ? found.line.slice(0, found.at) : [];
      }),
    );
    const [active, waiting, progress] = await Promise.all([
      this.#atWork(lines.flat()),
      this.#work([...aheadIds]),
      this.#progress.of(open.filter((g) => g.status === 'processing').map((g) => g.id)),
    ]);
    const estimate = (task: Work) => renderEstimate(model, task);
    // A running render's time left, as the in-process queue reckons it (timeLeft). The other renders at work are
    // counted without their progress.
    const activeLeft = active.reduce((sum, task) => sum + timeLeft(estimate(task), task.elapsed, 0), 0);
    const threads = Math.max(1, active.length);
    const asked = new Set(open.map((g) => g.id));
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

  /** The waiting lines these tasks are in (the shared queue, accounts' dedicated ones), each in pg-boss's order. */
  async #waitingLines(tasks: readonly Generation[]): Promise<string[][]> {
    const accounts = [...new Set(tasks.map((task) => task.account_id))];
    const queues = new Set(await Promise.all(accounts.map((account) => queueOf(this.#boss, account))));
    return Promise.all([...queues].map((queue) => this.#waitingInOrder(queue)));
  }

  /** The ids of a queue's jobs not yet taken, in the order pg-boss hands them out (priority DESC, then created_on). */
  async #waitingInOrder(queue: string): Promise<string[]> {
    const jobs = await this.#boss.findJobs<RenderJob>(queue, { queued: true, limit: MAX_LISTED });
    // findJobs lists by created_on, id; a stable sort by priority keeps that order within a priority.
    return jobs.sort((a, b) => b.priority - a.priority).map((job) => job.data.id);
  }

  /**
   * The tasks at work: processing and their job not waiting (a new task's job is made in its own transaction, so
   * one without a waiting job has been taken), with the seconds since their start.
   */
  async #atWork(waitingIds: readonly string[]): Promise<(Work & { elapsed: number })[]> {
    const { rows } = await this.#db.query(
      `SELECT id, duration, stems, encoding, coalesce(greatest(0, extract(epoch FROM now() - started_at)), 0)::float8 AS elapsed
         FROM generations
        WHERE status = 'processing' AND deleted_at IS NULL AND NOT (id = ANY($1))`,
      [waitingIds],
    );
    return rows as (Work & { elapsed: number })[];
  }

  async #work(ids: readonly string[]): Promise<Map<string, Work>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.#db.query('SELECT id, duration, stems, encoding FROM generations WHERE id = ANY($1)', [
      ids,
    ]);
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
