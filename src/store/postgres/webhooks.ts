/**
 * Webhook endpoints, signing secrets and the outbox (events and their deliveries) in PostgreSQL. Events are
 * written by transactions (transaction.ts) with the transition that causes them; the rest is here.
 */
import type { DeliveryQuery, WebhookRecords } from '../repository.ts';
import { RETAIN_MS } from '../webhook-file.ts';
import type { AccountSecret, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../domain/webhooks/types.ts';
import {
  DELIVERY_PATCHABLE,
  ENDPOINT_PATCHABLE,
  json,
  oneRow,
  setClause,
  toDelivery,
  toEndpoint,
  toEvent,
  toSecret,
  type Queryable,
} from './rows.ts';

export class PostgresWebhooks implements WebhookRecords {
  constructor(private readonly db: Queryable) {}

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return listEndpoints(this.db, accountId);
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const { rows } = await this.db.query('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    return rows[0] && toEndpoint(rows[0]);
  }

  async addEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await insertEndpoint(this.db, endpoint);
  }

  async updateEndpoint(
    id: string,
    patch: Partial<Omit<WebhookEndpoint, 'id' | 'account_id'>>,
  ): Promise<WebhookEndpoint> {
    const set = setClause(patch, ENDPOINT_PATCHABLE, 1);
    const { rows } = set.sql
      ? await this.db.query(`UPDATE webhook_endpoints SET ${set.sql} WHERE id = $1 RETURNING *`, [id, ...set.values])
      : await this.db.query('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    if (!rows[0]) throw new Error(`No webhook endpoint ${id}.`);
    return toEndpoint(rows[0]);
  }

  async deleteEndpoint(id: string): Promise<void> {
    await this.db.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
  }

  async getSecret(accountId: string): Promise<AccountSecret | undefined> {
    const { rows } = await this.db.query('SELECT * FROM webhook_secrets WHERE account_id = $1', [accountId]);
    return rows[0] && toSecret(rows[0]);
  }

  async putSecret(secret: AccountSecret): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_secrets (account_id, secret, previous, previous_expires_at, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id) DO UPDATE SET secret = EXCLUDED.secret, previous = EXCLUDED.previous, previous_expires_at = EXCLUDED.previous_expires_at, created_at = EXCLUDED.created_at`,
      secretValues(secret),
    );
  }

  /** Race-safe across nodes: the first insert wins, and every caller reads back the one that won. */
  async addSecretIfAbsent(secret: AccountSecret): Promise<AccountSecret> {
    await this.db.query(
      'INSERT INTO webhook_secrets (account_id, secret, previous, previous_expires_at, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO NOTHING',
      secretValues(secret),
    );
    const stored = await this.getSecret(secret.account_id);
    if (!stored) throw new Error(`the webhook secret of ${secret.account_id} is gone right after its insert`);
    return stored;
  }

  async getEvent(id: string): Promise<WebhookEvent | undefined> {
    const { rows } = await this.db.query('SELECT * FROM webhook_events WHERE id = $1', [id]);
    return rows[0] && toEvent(rows[0]);
  }

  async getDelivery(id: string): Promise<WebhookDelivery | undefined> {
    const { rows } = await this.db.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
    return rows[0] && toDelivery(rows[0]);
  }

  async listDeliveries(accountId: string, query: DeliveryQuery): Promise<{ items: WebhookDelivery[]; total: number }> {
    const where = ['account_id = $1'];
    const values: unknown[] = [accountId];
    if (query.state !== undefined) where.push(`state = $${values.push(query.state)}`);
    if (query.endpointId !== undefined) where.push(`endpoint_id = $${values.push(query.endpointId)}`);
    const filter = where.join(' AND ');
    const [{ rows }, count] = await Promise.all([
      this.db.query(
        `SELECT * FROM webhook_deliveries WHERE ${filter} ORDER BY seq DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, query.limit, query.offset],
      ),
      this.db.query(`SELECT count(*)::int AS total FROM webhook_deliveries WHERE ${filter}`, values),
    ]);
    return { items: rows.map(toDelivery), total: oneRow(count.rows).total };
  }

  async pendingDeliveries(): Promise<WebhookDelivery[]> {
    const { rows } = await this.db.query("SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY seq");
    return rows.map(toDelivery);
  }

  /** One UPDATE: the row lock makes concurrent claims from several nodes take turns, and the second finds the lease. */
  async claimDelivery(id: string, owner: string, until: Date, now: Date): Promise<WebhookDelivery | undefined> {
    const { rows } = await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = $2, lease_until = $3
       WHERE id = $1 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $4 OR lease_owner = $2) RETURNING *`,
      [id, owner, until, now],
    );
    return rows[0] && toDelivery(rows[0]);
  }

  async updateDelivery(
    id: string,
    patch: Partial<Omit<WebhookDelivery, 'id' | 'event_id' | 'account_id'>>,
  ): Promise<WebhookDelivery> {
    const set = setClause(patch, DELIVERY_PATCHABLE, 1);
    const { rows } = set.sql
      ? await this.db.query(
          `UPDATE webhook_deliveries SET ${set.sql}, lease_owner = NULL, lease_until = NULL WHERE id = $1 RETURNING *`,
          [id, ...set.values],
        )
      : await this.db.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
    if (!rows[0]) throw new Error(`No webhook delivery ${id}.`);
    return toDelivery(rows[0]);
  }

  async prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - RETAIN_MS);
    await this.db.query("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND updated_at < $1", [cutoff]);
    await this.db.query(
      'DELETE FROM webhook_events e WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)',
      [cutoff],
    );
  }
}

export async function listEndpoints(db: Queryable, accountId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query('SELECT * FROM webhook_endpoints WHERE account_id = $1 ORDER BY seq', [accountId]);
  return rows.map(toEndpoint);
}

export async function insertEndpoint(db: Queryable, endpoint: WebhookEndpoint): Promise<void> {
  await db.query(
    'INSERT INTO webhook_endpoints (id, account_id, url, events, description, created_at, failing_since, disabled_at, disabled_reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [
      endpoint.id,
      endpoint.account_id,
      endpoint.url,
      json(endpoint.events),
      endpoint.description,
      endpoint.created_at,
      endpoint.failing_since,
      endpoint.disabled_at,
      endpoint.disabled_reason,
    ],
  );
}

export async function insertEvent(
  db: Queryable,
  event: WebhookEvent,
  deliveries: readonly WebhookDelivery[],
): Promise<void> {
  await db.query(
    'INSERT INTO webhook_events (id, type, account_id, generation_id, created_at, transition_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [event.id, event.type, event.account_id, event.generation_id, event.created_at, event.transition_at],
  );
  for (const d of deliveries) await insertDelivery(db, d);
}

export async function insertDelivery(db: Queryable, d: WebhookDelivery): Promise<void> {
  await db.query(
    'INSERT INTO webhook_deliveries (id, event_id, account_id, endpoint_id, url, state, attempts, round_attempts, next_attempt_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
    [
      d.id,
      d.event_id,
      d.account_id,
      d.endpoint_id,
      d.url,
      d.state,
      json(d.attempts),
      d.round_attempts,
      d.next_attempt_at,
      d.created_at,
      d.updated_at,
    ],
  );
}

export const secretValues = (secret: AccountSecret): unknown[] => [
  secret.account_id,
  secret.secret,
  secret.previous,
  secret.previous_expires_at,
  secret.created_at,
];
