/** The PostgreSQL side of ../seed.ts: many finished generations written straight into the database, for benchmarks. */
import { seededGeneration, type SeedOptions } from '../seed.ts';
import type { Queryable } from './rows.ts';

const BATCH = 2_000;

export async function seedGenerationsInPostgres(
  db: Queryable,
  accountId: string,
  count: number,
  options: SeedOptions = {},
): Promise<void> {
  const newest = options.newest ?? new Date();
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) =>
      seededGeneration(accountId, start + i, { ...options, newest }),
    );
    // One statement per batch: the rows travel as one JSON array, which jsonb_to_recordset turns back into rows.
    await db.query(
      `INSERT INTO generations (id, account_id, status, prompt, duration, style, instrumental, seed, lyrics, callback_url, created_at, started_at, completed_at, attempts, title, quota_month, metadata, files, error)
       SELECT id, account_id, status, prompt, duration, style, instrumental, seed, lyrics, callback_url, created_at, started_at, completed_at, attempts, title, quota_month, metadata, files, error
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, account_id text, status text, prompt text, duration float8, style text, instrumental boolean, seed bigint, lyrics text,
         callback_url text, created_at timestamptz, started_at timestamptz, completed_at timestamptz, attempts int, title text, quota_month text, metadata jsonb, files jsonb, error jsonb)`,
      [JSON.stringify(batch)],
    );
  }
  await db.query('ANALYZE generations');
}
