/**
 * Render progress in PostgreSQL mode: the worker rendering a task writes how far it has got, so that every API
 * node shows it (the in-process queue keeps it in memory instead). A write belongs to its attempt: it lands only
 * while the generation is processing under that attempt, and never moves the fraction back.
 */
import type { Queryable } from '../../store/postgres/index.ts';

/** A running render writes at most this often: the poll interval clients use is seconds, not milliseconds. */
const WRITE_EVERY_MS = 1000;

export class RenderProgress {
  readonly #db: Queryable;
  readonly #clock: () => number;

  constructor(db: Queryable, options: { clock?: () => number } = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date.now;
  }

  /** Records `fraction` for the generation's attempt, if that attempt is still the one processing it. */
  async record(generationId: string, attempt: number, fraction: number): Promise<void> {
    await this.#db.query(
      `INSERT INTO render_progress (generation_id, attempt, fraction)
         SELECT id, $2, $3 FROM generations WHERE id = $1 AND attempts = $2 AND status = 'processing'
       ON CONFLICT (generation_id) DO UPDATE
         SET fraction = CASE WHEN render_progress.attempt = EXCLUDED.attempt THEN greatest(render_progress.fraction, EXCLUDED.fraction) ELSE EXCLUDED.fraction END,
             attempt = EXCLUDED.attempt, updated_at = now()
         WHERE EXCLUDED.attempt >= render_progress.attempt`,
      [generationId, attempt, Math.min(1, Math.max(0, fraction))],
    );
  }

  /**
   * An onProgress for one render: writes the first fraction and then at most once a second, one write at a time;
   * a failed write is reported to `onError` and never fails the render.
   */
  reporter(generationId: string, attempt: number, onError: (error: unknown) => void): (fraction: number) => void {
    let last = -Infinity;
    let writing = false;
    return (fraction) => {
      const now = this.#clock();
      if (writing || now - last < WRITE_EVERY_MS) return;
      last = now;
      writing = true;
      this.record(generationId, attempt, fraction)
        .catch(onError)
        .finally(() => {
          writing = false;
        });
    };
  }

  /** The fraction of each of these generations' current attempt that has one. */
  async of(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.#db.query(
      `SELECT p.generation_id AS id, p.fraction::float8 AS fraction FROM render_progress p JOIN generations g ON g.id = p.generation_id
        WHERE p.generation_id = ANY($1) AND p.attempt = g.attempts`,
      [ids],
    );
    return new Map((rows as { id: string; fraction: number }[]).map((row) => [row.id, row.fraction]));
  }
}
