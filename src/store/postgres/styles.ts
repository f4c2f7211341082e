/** Each account's own styles (POST /v1/styles) in PostgreSQL: one row each, keyed by account and name. */
import type { StyleRecords } from '../repository.ts';
import { StyleNameTakenError, type CustomStyleRecord } from '../../domain/custom-styles.ts';
import { json, type Queryable } from './rows.ts';

const toStyle = (r: Record<string, unknown>): CustomStyleRecord => ({
  account_id: r.account_id as string,
  name: r.name as string,
  base: r.base as string,
  description: r.description as string,
  changes: r.changes as CustomStyleRecord['changes'],
  created_at: (r.created_at as Date).toISOString(),
});

export class PostgresStyles implements StyleRecords {
  constructor(private readonly db: Queryable) {}

  async list(accountId: string): Promise<CustomStyleRecord[]> {
    const { rows } = await this.db.query(
      'SELECT * FROM custom_styles WHERE account_id = $1 ORDER BY name COLLATE "C"',
      [accountId],
    );
    return rows.map(toStyle);
  }

  async get(accountId: string, name: string): Promise<CustomStyleRecord | undefined> {
    const { rows } = await this.db.query('SELECT * FROM custom_styles WHERE account_id = $1 AND name = $2', [
      accountId,
      name,
    ]);
    return rows[0] && toStyle(rows[0]);
  }

  async add(style: CustomStyleRecord): Promise<void> {
    const { rowCount } = await this.db.query(
      `INSERT INTO custom_styles (account_id, name, base, description, changes, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, name) DO NOTHING`,
      [style.account_id, style.name, style.base, style.description, json(style.changes), style.created_at],
    );
    if (rowCount === 0) throw new StyleNameTakenError(style.name);
  }

  async delete(accountId: string, name: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM custom_styles WHERE account_id = $1 AND name = $2', [
      accountId,
      name,
    ]);
    return (rowCount ?? 0) > 0;
  }
}
