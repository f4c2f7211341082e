/**
 * The Repository in PostgreSQL (TUNESMITH_DATABASE_URL), for several nodes sharing one database: every read
 * goes to the database (no node caches records another may change), quota and idempotency are decided under a
 * lock on the account's row, a transition and its webhook event commit together, and watchers on any node hear
 * of every committed change (generation-watch.ts). The schema is migrations.ts's, applied at open.
 */
import pg from 'pg';
import { hashSecret, newAccountId, newApiKey, newGenerationId, newKeyId, safeEqual } from '../../ids.ts';
import { isPlanName, quotaMonth } from '../../domain/plans.ts';
import { assertQuotaRoom, batchLead, createOne } from '../batch-rules.ts';
import { StoreClosedError } from '../errors.ts';
import type {
  Repository,
  SettingName,
  Settings,
  Transaction,
  CreateGenerationOptions,
  ListOptions,
} from '../repository.ts';
import { IdempotencyConflictError, NothingToReplayError, NotFoundError } from '../../domain/errors.ts';
import type { Account, ApiKey, Generation, NewGeneration, PlanName } from '../../domain/model.ts';
import { PostgresCredentials } from './credentials.ts';
import { GenerationWatch } from './generation-watch.ts';
import { describeConnectionError } from './errors.ts';
import { migrate } from './migrations.ts';
import { GENERATION_COLUMNS, json, oneRow, toAccount, toGeneration, toKey, type Queryable } from './rows.ts';
import { PostgresTransaction } from './transaction.ts';
import { PostgresStyles } from './styles.ts';
import { PostgresWebhooks } from './webhooks.ts';

/**
 * Called inside the transaction that creates a generation, after its row is written and before the commit: the
 * job queue enqueues the render here, so the task and its job exist together or not at all. Not called when an
 * idempotent request replays an earlier generation.
 */
export type EnqueueInTransaction = (db: Queryable, generation: Generation, rank: number | undefined) => Promise<void>;

export interface OpenPostgresOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  clock?: () => Date;
  warn?: (message: string) => void;
  enqueue?: EnqueueInTransaction;
  /** Connections this node keeps open at most. @default 10 */
  poolSize?: number;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** last_used_at is a convenience: batching it saves a write per request. */
const TOUCH_FLUSH_MS = 10_000;

/** Connects, applies the migrations this database lacks, and starts listening for other nodes' changes. */
export async function openPostgresRepository(options: OpenPostgresOptions): Promise<PostgresRepository> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  const warn = options.warn ?? (() => undefined);
  // An idle connection the server dropped must not take the process down; the next query gets a new one.
  pool.on('error', (error) => warn(`A PostgreSQL connection failed while idle (${error.message}).`));
  try {
    await migrate(pool);
    const repository = new PostgresRepository(pool, {
      url: options.url,
      clock: options.clock ?? (() => new Date()),
      warn,
      enqueue: options.enqueue,
    });
    await repository.watch.start();
    return repository;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw describeConnectionError(error, options.url);
  }
}

export class PostgresRepository implements Repository {
  /** The node's connections, for what shares the database (the job queue, the rate limiter). */
  readonly pool: pg.Pool;
  readonly credentials: PostgresCredentials;
  readonly webhooks: PostgresWebhooks;
  readonly styles: PostgresStyles;
  readonly settings: Settings;
  readonly watch: GenerationWatch;
  /** The pool, refusing with StoreClosedError once closed (a request in flight at shutdown gets a 503, not a pool error). */
  readonly #db: Queryable;
  readonly #clock: () => Date;
  readonly #enqueue: EnqueueInTransaction | undefined;
  readonly #touches = new Map<string, Date>();
  #touchTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    pool: pg.Pool,
    options: {
      url: string;
      clock: () => Date;
      warn: (message: string) => void;
      enqueue?: EnqueueInTransaction | undefined;
    },
  ) {
    this.pool = pool;
    this.#db = {
      query: (text, values) => {
        this.#assertOpen();
        return pool.query(text, values);
      },
    };
    this.#clock = options.clock;
    this.#enqueue = options.enqueue;
    this.credentials = new PostgresCredentials(this.#db);
    this.webhooks = new PostgresWebhooks(this.#db);
    this.styles = new PostgresStyles(this.#db);
    this.settings = new PostgresSettings(this.#db);
    this.watch = new GenerationWatch({ connectionString: options.url }, (id) => this.#readGeneration(id), options.warn);
  }

  // Accounts and keys

  async createAccount(input: { email?: string | null; name?: string | null; plan: PlanName }): Promise<Account> {
    this.#assertOpen();
    if (!isPlanName(input.plan)) throw new TypeError(`Unknown plan "${String(input.plan)}".`);
    const { rows } = await this.#db.query(
      'INSERT INTO accounts (id, email, name, plan, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [newAccountId(), input.email ?? null, input.name ?? null, input.plan, this.#clock()],
    );
    return toAccount(oneRow(rows));
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const { rows } = await this.#db.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] && toAccount(rows[0]);
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.#db.query('SELECT * FROM accounts ORDER BY seq');
    return rows.map(toAccount);
  }

  async updateAccount(
    id: string,
    patch: Partial<Pick<Account, 'email' | 'plan' | 'rpm' | 'monthly'>>,
  ): Promise<Account> {
    this.#assertOpen();
    if (patch.plan !== undefined && !isPlanName(patch.plan))
      throw new TypeError(`Unknown plan "${String(patch.plan)}".`);
    const fields = (['email', 'plan', 'rpm', 'monthly'] as const).filter((field) => patch[field] !== undefined);
    const set = fields.map((field, i) => `${field} = $${i + 2}`).join(', ');
    const { rows } = await this.#db.query(
      set ? `UPDATE accounts SET ${set} WHERE id = $1 RETURNING *` : 'SELECT * FROM accounts WHERE id = $1',
      [id, ...fields.map((f) => patch[f])],
    );
    if (!rows[0]) throw new NotFoundError('account', id);
    return toAccount(rows[0]);
  }

  async deleteAccount(id: string): Promise<void> {
    this.#assertOpen();
    await this.#inTransaction(async (db) => {
      const { rows } = await db.query(
        `SELECT (SELECT count(*) FROM api_keys WHERE account_id = $1)::int AS keys,
                (SELECT count(*) FROM generations WHERE account_id = $1 AND deleted_at IS NULL)::int AS generations
         FROM accounts WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!rows[0]) throw new NotFoundError('account', id);
      if (rows[0].keys > 0 || rows[0].generations > 0)
        throw new TypeError(`Account ${id} has keys or generations; only an account with neither can be deleted.`);
      await db.query('DELETE FROM accounts WHERE id = $1', [id]);
    });
  }

  async createKey(accountId: string, name: string | null = null): Promise<{ key: string; record: ApiKey }> {
    this.#assertOpen();
    if (!(await this.getAccount(accountId))) throw new NotFoundError('account', accountId);
    const { key, prefix, hash } = newApiKey();
    const { rows } = await this.#db.query(
      'INSERT INTO api_keys (id, account_id, name, prefix, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [newKeyId(), accountId, name, prefix, hash, this.#clock()],
    );
    return { key, record: toKey(oneRow(rows)) };
  }

  async findKey(secret: string): Promise<ApiKey | undefined> {
    if (typeof secret !== 'string' || secret.length === 0 || secret.length > 256) return undefined;
    const hash = hashSecret(secret);
    const { rows } = await this.#db.query('SELECT * FROM api_keys WHERE hash = $1', [hash]);
    const record = rows[0] && toKey(rows[0]);
    if (!record || !safeEqual(record.hash, hash)) return undefined;
    const touched = this.#touches.get(record.id);
    return touched ? { ...record, last_used_at: touched.toISOString() } : record;
  }

  async listKeys(accountId?: string): Promise<ApiKey[]> {
    const { rows } =
      accountId === undefined
        ? await this.#db.query('SELECT * FROM api_keys ORDER BY seq')
        : await this.#db.query('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY seq', [accountId]);
    return rows.map(toKey).map((key) => {
      const touched = this.#touches.get(key.id);
      return touched ? { ...key, last_used_at: touched.toISOString() } : key;
    });
  }

  async revokeKey(keyId: string): Promise<ApiKey> {
    this.#assertOpen();
    const { rows } = await this.#db.query(
      'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING *',
      [keyId, this.#clock()],
    );
    if (!rows[0]) throw new NotFoundError('key', keyId);
    return toKey(rows[0]);
  }

  async touchKey(keyId: string, at: Date): Promise<void> {
    if (this.#closed) return;
    this.#touches.set(keyId, at);
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = null;
      this.#flushTouches().catch(() => undefined);
    }, TOUCH_FLUSH_MS).unref();
  }

  // Generations

  async createGeneration(
    input: NewGeneration,
    options: CreateGenerationOptions,
  ): Promise<{ generation: Generation; replayed: boolean }> {
    return createOne(this, input, options);
  }

  async createGenerations(
    inputs: readonly NewGeneration[],
    options: CreateGenerationOptions,
  ): Promise<{ generations: Generation[]; replayed: boolean }> {
    this.#assertOpen();
    const first = batchLead(inputs);
    const now = options.now ?? this.#clock();
    return this.#inTransaction(async (db) => {
      // The account's row lock serialises its creates on every node: two cannot both see the last free unit.
      const account = await db.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [first.account_id]);
      if (!account.rows[0]) throw new NotFoundError('account', first.account_id);
      const idem = options.idempotency;
      if (idem) {
        const { rows } = await db.query(
          `SELECT ${GENERATION_COLUMNS}, idempotency_body_hash FROM generations
           WHERE account_id = $1 AND idempotency_key = $2 AND deleted_at IS NULL AND created_at > $3
           ORDER BY created_at DESC LIMIT 1`,
          [first.account_id, idem.key, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)],
        );
        if (rows[0]) {
          if (rows[0].idempotency_body_hash !== idem.bodyHash) throw new IdempotencyConflictError();
          const prior = toGeneration(rows[0]);
          if (!prior.batch) return { generations: [prior], replayed: true };
          // The key is kept on the batch's first task; the others are found by their batch id, in order.
          const batch = await db.query(
            `SELECT ${GENERATION_COLUMNS} FROM generations WHERE account_id = $1 AND batch->>'id' = $2 AND deleted_at IS NULL ORDER BY (batch->>'index')::int`,
            [first.account_id, prior.batch.id],
          );
          return { generations: batch.rows.map(toGeneration), replayed: true };
        }
      }
      if (options.replayOnly) throw new NothingToReplayError();
      const month = quotaMonth(now);
      if (options.monthlyQuota !== null) {
        const { rows } = await db.query(
          "SELECT count(*)::int AS used FROM generations WHERE account_id = $1 AND quota_month = $2 AND status <> 'failed'",
          [first.account_id, month],
        );
        assertQuotaRoom(rows[0].used, inputs.length, options, now);
      }
      const generations: Generation[] = [];
      for (const [index, input] of inputs.entries()) {
        const keyed = index === 0 ? idem : undefined;
        const { rows } = await db.query(
          `INSERT INTO generations (id, account_id, status, prompt, duration, style, instrumental, seed, lyrics, callback_url, created_at, quota_month, request_id, stems, loop, encoding, music, plan, batch, source, idempotency_key, idempotency_body_hash, custom_style)
           VALUES ($1, $2, 'processing', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
           RETURNING ${GENERATION_COLUMNS}`,
          [
            newGenerationId(),
            input.account_id,
            input.prompt,
            input.duration,
            input.style,
            input.instrumental,
            input.seed,
            input.lyrics,
            input.callback_url,
            now,
            month,
            input.request_id ?? null,
            input.stems === true,
            input.loop === true,
            json(input.encoding),
            json(input.music),
            json(input.plan),
            json(input.batch),
            json(input.source),
            keyed?.key ?? null,
            keyed?.bodyHash ?? null,
            json(input.custom_style),
          ],
        );
        generations.push(toGeneration(rows[0]));
      }
      if (this.#enqueue) for (const generation of generations) await this.#enqueue(db, generation, options.rank);
      return { generations, replayed: false };
    });
  }

  async getGeneration(accountId: string, id: string): Promise<Generation | undefined> {
    const { rows } = await this.#db.query(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [id, accountId],
    );
    return rows[0] && toGeneration(rows[0]);
  }

  async listGenerations(accountId: string, options: ListOptions): Promise<{ items: Generation[]; total: number }> {
    const where = ['account_id = $1', 'deleted_at IS NULL'];
    const values: unknown[] = [accountId];
    if (options.status !== undefined) where.push(`status = $${values.push(options.status)}`);
    // strpos, not LIKE: the search text is plain text, its % and _ included.
    if (options.search) where.push(`strpos(lower(prompt), lower($${values.push(options.search)})) > 0`);
    const filter = where.join(' AND ');
    // Without a search the total is the trigger-kept count (migration 3); a search has to count its matches.
    const count = options.search
      ? this.#db.query(`SELECT count(*)::int AS total FROM generations WHERE ${filter}`, values)
      : this.#db.query(
          `SELECT coalesce(sum(n), 0)::int AS total FROM generation_counts WHERE account_id = $1${options.status === undefined ? '' : ' AND status = $2'}`,
          values,
        );
    const [{ rows }, counted] = await Promise.all([
      this.#db.query(
        `SELECT ${GENERATION_COLUMNS} FROM generations WHERE ${filter} ORDER BY created_at DESC, id COLLATE "C" LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, options.limit, options.offset],
      ),
      count,
    ]);
    return { items: rows.map(toGeneration), total: oneRow(counted.rows).total };
  }

  async deleteGeneration(id: string): Promise<void> {
    this.#assertOpen();
    await this.#inTransaction(async (db) => {
      const { rows } = await db.query(
        'SELECT status FROM generations WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
        [id],
      );
      if (!rows[0]) throw new NotFoundError('generation', id);
      const status = rows[0].status as string;
      if (status !== 'completed' && status !== 'failed')
        throw new TypeError(`Generation ${id} is ${status}: only finished generations can be deleted.`);
      // What is left keeps the month's quota spent and nothing else: no prompt, lyrics, files or idempotency key, as with the file store.
      await db.query(
        `UPDATE generations SET deleted_at = $2, prompt = '', lyrics = NULL, callback_url = NULL, title = NULL, metadata = NULL, files = NULL, music = NULL, error = NULL,
           idempotency_key = NULL, idempotency_body_hash = NULL WHERE id = $1`,
        [id, this.#clock()],
      );
      await this.watch.announce(db, [id]);
    });
    this.watch.notify(id, undefined);
  }

  async unfinishedGenerations(): Promise<Generation[]> {
    const { rows } = await this.#db.query(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE status IN ('pending', 'processing') AND deleted_at IS NULL ORDER BY created_at, id COLLATE "C" DESC`,
    );
    return rows.map(toGeneration);
  }

  async usage(accountId: string, month: string): Promise<number> {
    const { rows } = await this.#db.query(
      "SELECT count(*)::int AS used FROM generations WHERE account_id = $1 AND quota_month = $2 AND status <> 'failed'",
      [accountId, month],
    );
    return oneRow(rows).used;
  }

  async storageUsed(accountId: string): Promise<number> {
    // Kept by a trigger as tracks come, change and go (migration 9): a lookup, whatever the history's length.
    const { rows } = await this.#db.query('SELECT bytes FROM account_storage WHERE account_id = $1', [accountId]);
    return Number(rows[0]?.bytes ?? 0);
  }

  watchGeneration(id: string, listener: (generation: Generation | undefined) => void): () => void {
    return this.watch.watch(id, listener);
  }

  watchOtherNodes(listener: () => void): () => void {
    return this.watch.onOtherNodes(listener);
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    this.#assertOpen();
    const { value, changed } = await this.#inTransaction(async (db) => {
      const tx = new PostgresTransaction(db);
      const value = await fn(tx);
      await this.watch.announce(db, tx.changed.keys());
      return { value, changed: tx.changed };
    });
    for (const [id, generation] of changed) this.watch.notify(id, generation);
    return value;
  }

  /**
   * A secret every node shares (the download-signing key, the dashboard's cookie key): the value stored under
   * `name`, or `make()`'s when there is none yet. When nodes start together, the first insert wins and every
   * node reads back the one that won.
   */
  async sharedSecret(name: string, make: () => string): Promise<string> {
    await this.#db.query('INSERT INTO shared_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      make(),
    ]);
    const { rows } = await this.#db.query('SELECT value FROM shared_secrets WHERE name = $1', [name]);
    return oneRow(rows).value as string;
  }

  /**
   * Runs `fn` while holding the PostgreSQL advisory lock `key`, which no other node holds meanwhile (a node
   * waits for it): for what must happen once for the whole database, like the first start's account.
   */
  async exclusively<T>(key: number, fn: () => Promise<T>): Promise<T> {
    this.#assertOpen();
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    } finally {
      client.release();
    }
  }

  // Health

  readonly storeName = 'the store (its PostgreSQL database)';

  async healthy(): Promise<boolean> {
    if (this.#closed) return false;
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Nodes share the database by design: none takes it from another. */
  holdsLock(): boolean {
    return true;
  }

  /** A database that cannot take a write fails the write itself, with its own error; there is no local disk to watch. */
  async canWrite(): Promise<boolean> {
    return !this.#closed;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#touchTimer) {
      clearTimeout(this.#touchTimer);
      this.#touchTimer = null;
    }
    await this.#flushTouches().catch(() => undefined);
    await this.watch.close();
    await this.pool.end();
  }

  // Internals

  /** Runs `fn` between BEGIN and COMMIT on one connection; anything it throws rolls it all back. */
  async #inTransaction<T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    this.#assertOpen();
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      }
    } finally {
      // A connection whose rollback failed is in an unknown state: it is dropped, not reused.
      client.release(broken);
    }
  }

  async #readGeneration(id: string): Promise<Generation | undefined> {
    const { rows } = await this.#db.query(
      `SELECT ${GENERATION_COLUMNS} FROM generations WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return rows[0] && toGeneration(rows[0]);
  }

  async #flushTouches(): Promise<void> {
    if (this.#touches.size === 0) return;
    const batch = [...this.#touches];
    this.#touches.clear();
    await this.pool.query(
      'UPDATE api_keys k SET last_used_at = t.at FROM unnest($1::text[], $2::timestamptz[]) AS t(id, at) WHERE k.id = t.id AND (k.last_used_at IS NULL OR k.last_used_at < t.at)',
      [batch.map(([id]) => id), batch.map(([, at]) => at)],
    );
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError();
  }
}

class PostgresSettings implements Settings {
  constructor(private readonly db: Queryable) {}

  async get(name: SettingName): Promise<unknown> {
    const { rows } = await this.db.query('SELECT value FROM settings WHERE name = $1', [name]);
    return rows[0]?.value;
  }

  async put(name: SettingName, value: unknown): Promise<void> {
    await this.db.query(
      'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [name, JSON.stringify(value)],
    );
  }
}
