/**
 * queue_position and estimated_time in PostgreSQL mode, read from the real queue: pg-boss hands out the render
 * queue's waiting jobs ('created', 'retry') by priority DESC, then created_on, so a task's position is its rank in
 * that order; the jobs 'active' are the render threads at work somewhere. The estimate uses the in-process
 * queue's speed model (a fixed cost per track plus a cost per audio second), its per-second cost learned from the
 * generations completed most recently on any node, and spreads the work ahead over the threads at work.
 *
 * One query for a page of tasks (the window over the waiting jobs is computed once), plus the speed, which is
 * cached for SPEED_TTL_MS because it moves slowly.
 */
import type { Generation } from '../../domain/model.ts';
import type { Queryable } from '../../store/postgres/index.ts';
import { DEFAULT_SPEED, timeLeft } from '../render-speed.ts';
import type { LiveState } from '../types.ts';
import { RENDER_QUEUE } from './render-queue.ts';
import { RenderProgress } from './render-progress.ts';

/** How many of the latest completed renders the per-second cost is the mean of. */
const SPEED_SAMPLE = 20;
const SPEED_TTL_MS = 5_000;

interface QueueRow {
  gid: string;
  state: string;
  position: number | null;
  ahead_tracks: number | null;
  ahead_audio: number | null;
  elapsed: number | null;
  duration: number;
  active_count: number;
  active_remaining_json: { duration: number; elapsed: number }[] | null;
}

export class QueueEstimates {
  readonly #db: Queryable;
  readonly #schema: string;
  readonly #clock: () => number;
  readonly #progress: RenderProgress;
  #speed: { perAudioSecond: number; at: number } | undefined;

  constructor(db: Queryable, options: { schema?: string; clock?: () => number } = {}) {
    this.#db = db;
    this.#progress = new RenderProgress(db);
    this.#schema = options.schema ?? 'pgboss';
    this.#clock = options.clock ?? Date.now;
  }

  /** Expected wall seconds to render a track of this many seconds, on one thread. */
  estimate(audioSeconds: number, perAudioSecond: number): number {
    return DEFAULT_SPEED.overheadSeconds + audioSeconds * perAudioSecond;
  }

  /** The live state of each of `generations` that has a job waiting or running; the others are left out. */
  async live(generations: readonly Generation[]): Promise<Map<string, LiveState>> {
    const states = new Map<string, LiveState>();
    const open = generations.filter((g) => g.status === 'pending' || g.status === 'processing');
    const ids = open.map((g) => g.id);
    if (ids.length === 0) return states;
    const [perSecond, rows, progress] = await Promise.all([
      this.#perAudioSecond(),
      this.#queueRows(ids),
      this.#progress.of(open.filter((g) => g.status === 'processing').map((g) => g.id)),
    ]);
    const active = rows[0]?.active_remaining_json ?? [];
    // A running render's time left, as the in-process queue reckons it (timeLeft). The other renders at work are
    // counted without their progress.
    const remaining = (duration: number, elapsed: number, done = 0) =>
      timeLeft(this.estimate(duration, perSecond), elapsed, done);
    const activeLeft = active.reduce((sum, job) => sum + remaining(job.duration, job.elapsed), 0);
    const threads = Math.max(1, rows[0]?.active_count ?? 0);
    for (const row of rows) {
      if (row.state === 'active') {
        const done = progress.get(row.gid) ?? 0;
        states.set(row.gid, {
          queue_position: 0,
          progress: done,
          estimated_time: remaining(row.duration, row.elapsed ?? 0, done),
        });
        continue;
      }
      const aheadWork = (row.ahead_tracks ?? 0) * DEFAULT_SPEED.overheadSeconds + (row.ahead_audio ?? 0) * perSecond;
      states.set(row.gid, {
        queue_position: row.position ?? 1,
        progress: 0,
        estimated_time: (activeLeft + aheadWork) / threads + this.estimate(row.duration, perSecond),
      });
    }
    return states;
  }

  async #queueRows(ids: string[]): Promise<QueueRow[]> {
    const s = this.#schema;
    const { rows } = await this.#db.query(
      `WITH waiting AS (
         SELECT j.data->>'id' AS gid, g.duration,
                row_number() OVER w AS position,
                count(*) OVER w - 1 AS ahead_tracks,
                coalesce(sum(g.duration) OVER w, 0) - g.duration AS ahead_audio
           FROM ${s}.job j JOIN generations g ON g.id = j.data->>'id'
          WHERE j.name = $1 AND j.state IN ('created', 'retry')
         WINDOW w AS (ORDER BY j.priority DESC, j.created_on ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
       ), active AS (
         SELECT j.data->>'id' AS gid, g.duration, extract(epoch FROM now() - j.started_on)::float8 AS elapsed
           FROM ${s}.job j JOIN generations g ON g.id = j.data->>'id'
          WHERE j.name = $1 AND j.state = 'active'
       ), summary AS (
         SELECT count(*)::int AS active_count,
                json_agg(json_build_object('duration', duration, 'elapsed', elapsed)) AS active_remaining_json
           FROM active
       )
       SELECT mine.*, summary.* FROM (
         SELECT gid, 'waiting' AS state, position::int, ahead_tracks::int, ahead_audio::float8, NULL::float8 AS elapsed, duration FROM waiting WHERE gid = ANY($2)
         UNION ALL
         SELECT gid, 'active', NULL, NULL, NULL, elapsed, duration FROM active WHERE gid = ANY($2)
       ) mine CROSS JOIN summary`,
      [RENDER_QUEUE, ids],
    );
    // CROSS JOIN with no row of ours gives nothing; the summary then does not matter either.
    return rows as QueueRow[];
  }

  async #perAudioSecond(): Promise<number> {
    const now = this.#clock();
    if (this.#speed && now - this.#speed.at < SPEED_TTL_MS) return this.#speed.perAudioSecond;
    const { rows } = await this.#db.query(
      `SELECT avg(greatest(0.001, (extract(epoch FROM completed_at - started_at) - $1) / duration))::float8 AS per_second
         FROM (SELECT started_at, completed_at, duration FROM generations
                WHERE status = 'completed' AND started_at IS NOT NULL AND completed_at IS NOT NULL AND duration > 0
                ORDER BY completed_at DESC LIMIT $2) latest`,
      [DEFAULT_SPEED.overheadSeconds, SPEED_SAMPLE],
    );
    const learned = rows[0]?.per_second;
    const perAudioSecond = typeof learned === 'number' && learned > 0 ? learned : DEFAULT_SPEED.perAudioSecond;
    this.#speed = { perAudioSecond, at: now };
    return perAudioSecond;
  }
}
