/**
 * A Repository transaction on one PostgreSQL connection between BEGIN and COMMIT. A generation it reads is
 * locked (FOR UPDATE) until the commit, so two nodes moving the same task serialise rather than overwrite each
 * other. Each changed generation is announced with pg_notify, which PostgreSQL delivers only on commit.
 */
import type { GenerationPatch, Transaction } from '../repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Account, Generation } from '../../domain/model.ts';
import type { EventType, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../domain/webhooks/types.ts';
import {
  GENERATION_COLUMNS,
  GENERATION_PATCHABLE,
  setClause,
  toAccount,
  toEvent,
  toGeneration,
  type Queryable,
} from './rows.ts';
import { listEndpoints, insertEvent } from './webhooks.ts';

export class PostgresTransaction implements Transaction {
  /** Generation id -> its state after this transaction's last change of it: what watchers hear after the commit. */
  readonly changed = new Map<string, Generation>();

  constructor(private readonly db: Queryable) {}

  async getAccount(id: string): Promise<Account | undefined> {
    const { rows } = await this.db.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] && toAccount(rows[0]);
  }

  async getGeneration(id: string): Promise<Generation | undefined> {
    const { rows } = await this.db.query(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
      [id],
    );
    return rows[0] && toGeneration(rows[0]);
  }

  async updateGeneration(id: string, patch: GenerationPatch): Promise<Generation> {
    // Who a task belongs to and which month it counts against never change, whatever a patch says: GENERATION_PATCHABLE leaves them out.
    const set = setClause(patch as Record<string, unknown>, GENERATION_PATCHABLE, 1);
    const { rows } = set.sql
      ? await this.db.query(
          `UPDATE generations SET ${set.sql} WHERE id = $1 AND deleted_at IS NULL RETURNING ${GENERATION_COLUMNS}`,
          [id, ...set.values],
        )
      : await this.db.query(`SELECT ${GENERATION_COLUMNS} FROM generations WHERE id = $1 AND deleted_at IS NULL`, [id]);
    if (!rows[0]) throw new NotFoundError('generation', id);
    const generation = toGeneration(rows[0]);
    this.changed.set(id, generation);
    return generation;
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return listEndpoints(this.db, accountId);
  }

  async eventFor(generationId: string, type: EventType): Promise<WebhookEvent | undefined> {
    const { rows } = await this.db.query(
      'SELECT * FROM webhook_events WHERE generation_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1',
      [generationId, type],
    );
    return rows[0] && toEvent(rows[0]);
  }

  async addEvent(event: WebhookEvent, deliveries: WebhookDelivery[]): Promise<void> {
    await insertEvent(this.db, event, deliveries);
  }

  async setEventTransition(
    event: Pick<WebhookEvent, 'id' | 'generation_id'>,
    transitionAt: string | null,
  ): Promise<void> {
    await this.db.query('UPDATE webhook_events SET transition_at = $2 WHERE id = $1', [event.id, transitionAt]);
  }
}
