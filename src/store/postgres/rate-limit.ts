/**
 * The per-account rate limit shared by every API node on one PostgreSQL database: the same token bucket as
 * token-bucket.ts, one row per account, refilled and spent in a single INSERT … ON CONFLICT DO UPDATE, so two
 * nodes taking from one bucket at once serialise on its row and never both spend its last token.
 */
import { oneRow, type Queryable } from './index.ts';
import { describeBucket, type RequestLimiter, type TakeResult } from '../../domain/token-bucket.ts';

// $2 capacity, $3 now (epoch ms), $4 window (ms). In ON CONFLICT's SET every b.* is the row as it was.
const REFILLED = 'least($2::float8, b.tokens + greatest(0, $3::float8 - b.at_ms) * $2::float8 / $4::float8)';
const TAKE = `
  INSERT INTO rate_limit_buckets AS b (key, tokens, at_ms, allowed) VALUES ($1, $2::float8 - 1, $3, true)
  ON CONFLICT (key) DO UPDATE SET
    tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
    at_ms = greatest(b.at_ms, $3::float8),
    allowed = ${REFILLED} >= 1
  RETURNING tokens, allowed`;

export class PostgresLimiter implements RequestLimiter {
  constructor(
    private readonly db: Queryable,
    private readonly windowMs: number,
  ) {}

  async take(key: string, capacity: number, nowMs: number): Promise<TakeResult> {
    const { rows } = await this.db.query(TAKE, [key, capacity, nowMs, this.windowMs]);
    const row = oneRow(rows);
    return describeBucket(row.tokens, capacity, this.windowMs, row.allowed);
  }
}
