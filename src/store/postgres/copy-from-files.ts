/**
 * `tunesmith migrate --to postgres://…`: copies a data dir's records into an empty PostgreSQL database, in one
 * transaction (a copy that fails leaves the database as empty as it found it). Ids, hashes and timestamps are
 * kept, so keys, links, idempotency keys and webhook ids go on working; the audio stays where it is (its keys
 * in the records are the same). Dashboard sessions are copied (with the signing key that signs their cookies,
 * so people stay signed in); one-time sign-in links are not (a new one is a command away).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DamagedFileError } from '../errors.ts';
import { isDeleted, loadGenerationFiles } from '../generation-files.ts';
import type { FileRepository } from '../file-repository.ts';
import type { SettingName } from '../repository.ts';
import type { WebhookDelivery, WebhookEvent } from '../../domain/webhooks/types.ts';
import { DatabaseNotEmptyError, describeConnectionError } from './errors.ts';
import { migrate } from './migrations.ts';
import { json, oneRow, type Queryable } from './rows.ts';
import { PostgresStyles } from './styles.ts';
import { insertDelivery, insertEndpoint, secretValues } from './webhooks.ts';
import pg from 'pg';

export interface CopyCounts {
  accounts: number;
  keys: number;
  credentials: number;
  /** Dashboard sessions (the database finds only the unexpired ones, as the files did). */
  sessions: number;
  generations: number;
  /** Of `generations`: deleted ones, kept only so their month's quota stays spent. */
  deleted_generations: number;
  custom_styles: number;
  webhook_endpoints: number;
  webhook_secrets: number;
  webhook_events: number;
  webhook_deliveries: number;
  settings: number;
  signing_key: number;
}

/** Every table that holds records (not schema_migrations, not the rate-limit buckets). */
const RECORD_TABLES = [
  'accounts',
  'api_keys',
  'generations',
  'generation_counts',
  'credentials',
  'sessions',
  'sign_in_links',
  'custom_styles',
  'webhook_endpoints',
  'webhook_secrets',
  'webhook_events',
  'webhook_deliveries',
  'settings',
  'shared_secrets',
];
const COPIED_SETTINGS: SettingName[] = ['render-speed', 'last-public-url'];
const EVERYTHING = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

/** `store` is the data dir opened (and locked) by the caller; `url` names the target database. */
export async function copyDataDirToPostgres(store: FileRepository, url: string): Promise<CopyCounts> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw describeConnectionError(error, url);
    });
    try {
      await migrate(pool);
      await client.query('BEGIN');
      try {
        // Taken before the emptiness check: a second migrate, or any node writing to this database, waits for the copy.
        await client.query(`LOCK TABLE ${RECORD_TABLES.join(', ')} IN EXCLUSIVE MODE`);
        await refuseUnlessEmpty(client);
        const counts = await copy(store, client);
        await client.query('COMMIT');
        return counts;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

async function refuseUnlessEmpty(db: Queryable): Promise<void> {
  const held: string[] = [];
  for (const table of RECORD_TABLES) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${table}`);
    const { n } = oneRow(rows);
    if (n > 0) held.push(`${n} row(s) in ${table}`);
  }
  if (held.length > 0) throw new DatabaseNotEmptyError(held.join(', '));
}

async function copy(store: FileRepository, db: Queryable): Promise<CopyCounts> {
  const counts: CopyCounts = {
    accounts: 0,
    keys: 0,
    credentials: 0,
    sessions: 0,
    generations: 0,
    deleted_generations: 0,
    custom_styles: 0,
    webhook_endpoints: 0,
    webhook_secrets: 0,
    webhook_events: 0,
    webhook_deliveries: 0,
    settings: 0,
    signing_key: 0,
  };
  const accounts = await store.listAccounts();
  for (const a of accounts) {
    await db.query(
      'INSERT INTO accounts (id, email, name, plan, rpm, monthly, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [a.id, a.email, a.name, a.plan, a.rpm, a.monthly, a.created_at],
    );
    counts.accounts++;
  }
  for (const k of await store.listKeys()) {
    await db.query(
      'INSERT INTO api_keys (id, account_id, name, prefix, hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [k.id, k.account_id, k.name, k.prefix, k.hash, k.created_at, k.last_used_at, k.revoked_at],
    );
    counts.keys++;
  }
  for (const a of accounts) {
    const credential = await store.credentials.forAccount(a.id);
    if (!credential) continue;
    await db.query('INSERT INTO credentials (account_id, email, password, created_at) VALUES ($1, $2, $3, $4)', [
      credential.account_id,
      credential.email,
      JSON.stringify(credential.password),
      credential.created_at,
    ]);
    counts.credentials++;
  }
  for (const session of store.credentials.storedSessions()) {
    await db.query('INSERT INTO sessions (id_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
      session.id_hash,
      session.account_id,
      session.expires_at,
    ]);
    counts.sessions++;
  }

  // From the files themselves, not the store's reads: they also hold the deleted generations (their quota stays
  // spent) and each generation's idempotency key. The store already moved any damaged file aside when it opened.
  const eventIds = new Set<string>();
  const stored = loadGenerationFiles(
    join(store.dataDir, 'generations'),
    join(store.dataDir, 'quarantine'),
    () => undefined,
  );
  // Oldest first, as a database that made them would have numbered them.
  stored.sort(oldestFirst);
  for (const g of stored) {
    if (isDeleted(g)) {
      await db.query(
        `INSERT INTO generations (id, account_id, status, prompt, duration, instrumental, seed, created_at, quota_month, deleted_at)
         VALUES ($1, $2, $3, '', 0, false, 0, $4, $5, $6)`,
        [g.id, g.account_id, g.status, g.created_at, g.quota_month, g.deleted_at],
      );
      counts.deleted_generations++;
    } else {
      await db.query(
        `INSERT INTO generations (id, account_id, status, prompt, duration, style, instrumental, seed, lyrics, callback_url, created_at, started_at, completed_at, attempts, title,
           quota_month, request_id, stems, loop, metadata, files, encoding, error, music, idempotency_key, idempotency_body_hash, plan, batch, source, custom_style)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)`,
        [
          g.id,
          g.account_id,
          g.status,
          g.prompt,
          g.duration,
          g.style,
          g.instrumental,
          g.seed,
          g.lyrics,
          g.callback_url,
          g.created_at,
          g.started_at,
          g.completed_at,
          g.attempts,
          g.title,
          g.quota_month,
          g.request_id ?? null,
          g.stems === true,
          g.loop === true,
          json(g.metadata),
          json(g.files),
          json(g.encoding),
          json(g.error),
          json(g.music),
          g.idempotency?.key ?? null,
          g.idempotency?.bodyHash ?? null,
          json(g.plan),
          json(g.batch),
          json(g.source),
          json(g.custom_style),
        ],
      );
      for (const event of g.webhook_events ?? []) eventIds.add(event.id);
    }
    counts.generations++;
  }

  const deliveries: WebhookDelivery[] = [];
  for (const a of accounts) {
    for (const style of await store.styles.list(a.id)) {
      await new PostgresStyles(db).add(style);
      counts.custom_styles++;
    }
    for (const endpoint of await store.webhooks.listEndpoints(a.id)) {
      await insertEndpoint(db, endpoint);
      counts.webhook_endpoints++;
    }
    const secret = await store.webhooks.getSecret(a.id);
    if (secret) {
      await db.query(
        'INSERT INTO webhook_secrets (account_id, secret, previous, previous_expires_at, created_at) VALUES ($1, $2, $3, $4, $5)',
        secretValues(secret),
      );
      counts.webhook_secrets++;
    }
    // The log lists newest first; the outbox is numbered oldest first.
    deliveries.push(...(await store.webhooks.listDeliveries(a.id, EVERYTHING)).items.reverse());
  }
  for (const d of deliveries) eventIds.add(d.event_id);
  const events: WebhookEvent[] = [];
  for (const id of eventIds) {
    const event = await store.webhooks.getEvent(id);
    if (event) events.push(event);
  }
  events.sort(oldestFirst);
  for (const e of events) {
    await db.query(
      'INSERT INTO webhook_events (id, type, account_id, generation_id, created_at, transition_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [e.id, e.type, e.account_id, e.generation_id, e.created_at, e.transition_at],
    );
    counts.webhook_events++;
  }
  deliveries.sort(oldestFirst);
  for (const d of deliveries) {
    await insertDelivery(db, d);
    counts.webhook_deliveries++;
  }

  for (const name of COPIED_SETTINGS) {
    const value = await store.settings.get(name);
    if (value === undefined) continue;
    await db.query('INSERT INTO settings (name, value) VALUES ($1, $2)', [name, JSON.stringify(value)]);
    counts.settings++;
  }
  const signingKey = await readSigningKey(store.dataDir);
  if (signingKey) {
    await db.query("INSERT INTO shared_secrets (name, value) VALUES ('signing-key', $1)", [signingKey]);
    counts.signing_key = 1;
  }
  return counts;
}

const oldestFirst = (a: { created_at: string }, b: { created_at: string }): number =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;

/** The data dir's download-signing key, if it has one (a data dir whose server never started has none). */
async function readSigningKey(dataDir: string): Promise<string | undefined> {
  try {
    const key = (await readFile(join(dataDir, 'signing.key'), 'utf8')).trim();
    if (/^[0-9a-f]{64}$/.test(key)) return key;
    throw new DamagedFileError(
      join(dataDir, 'signing.key'),
      'it is not 64 hex digits',
      'restore it from a backup before migrating, or delete it (every download link already given out stops working)',
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
