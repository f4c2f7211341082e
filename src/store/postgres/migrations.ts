/**
 * The PostgreSQL schema, as numbered migrations applied in order at start and recorded in schema_migrations.
 * They run under a session advisory lock, so nodes starting together apply each migration once; a migration and
 * its record commit together, so a crash half-way leaves nothing half-applied. Never edit a released migration:
 * add the next one.
 */
import type pg from 'pg';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Any fixed 64-bit number, the same on every node: the key of the advisory lock migrations are taken under. */
const MIGRATION_LOCK = 7_405_112_014;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'records',
    sql: `
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        email text,
        name text,
        plan text NOT NULL,
        rpm integer,
        monthly integer,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        account_id text NOT NULL,
        name text,
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_account ON api_keys (account_id, seq);

      -- A deleted generation keeps its row (deleted_at set): its quota unit stays spent, and no read shows it.
      CREATE TABLE generations (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
        prompt text NOT NULL,
        duration double precision NOT NULL,
        style text,
        instrumental boolean NOT NULL,
        seed bigint NOT NULL,
        lyrics text,
        callback_url text,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        title text,
        quota_month text NOT NULL,
        request_id text,
        stems boolean NOT NULL DEFAULT false,
        loop boolean NOT NULL DEFAULT false,
        metadata jsonb,
        files jsonb,
        encoding jsonb,
        error jsonb,
        music jsonb,
        idempotency_key text,
        idempotency_body_hash text,
        deleted_at timestamptz
      );
      CREATE INDEX generations_list ON generations (account_id, created_at DESC, id COLLATE "C") WHERE deleted_at IS NULL;
      CREATE INDEX generations_usage ON generations (account_id, quota_month) WHERE status <> 'failed';
      CREATE INDEX generations_unfinished ON generations (created_at) WHERE status IN ('pending', 'processing') AND deleted_at IS NULL;
      CREATE INDEX generations_idempotency ON generations (account_id, idempotency_key, created_at DESC) WHERE idempotency_key IS NOT NULL AND deleted_at IS NULL;

      CREATE TABLE credentials (
        account_id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password jsonb NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE sessions (
        id_hash text PRIMARY KEY,
        account_id text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE TABLE sign_in_links (
        token_hash text PRIMARY KEY,
        account_id text NOT NULL,
        expires_at timestamptz NOT NULL
      );

      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        account_id text NOT NULL,
        url text NOT NULL,
        events jsonb NOT NULL,
        description text,
        created_at timestamptz NOT NULL,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text
      );
      CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, seq);
      CREATE TABLE webhook_secrets (
        account_id text PRIMARY KEY,
        secret text NOT NULL,
        previous text,
        previous_expires_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        type text NOT NULL,
        account_id text NOT NULL,
        generation_id text NOT NULL,
        created_at timestamptz NOT NULL,
        transition_at timestamptz
      );
      CREATE INDEX webhook_events_generation ON webhook_events (generation_id, type, seq DESC);
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,
        seq bigserial UNIQUE,
        event_id text NOT NULL,
        account_id text NOT NULL,
        endpoint_id text,
        url text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts jsonb NOT NULL,
        round_attempts integer NOT NULL,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, seq DESC);
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (seq) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

      CREATE TABLE settings (
        name text PRIMARY KEY,
        value jsonb NOT NULL
      );
      -- Secrets every node must share (the download-signing key, the dashboard's cookie key): made once, by whichever node starts first.
      CREATE TABLE shared_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 2,
    name: 'rate limits',
    sql: `
      -- One token bucket per key, shared by every API node: refilled and spent in one statement
      -- (src/store/postgres/rate-limit.ts). Unlogged: a crash of the database only hands out full buckets.
      CREATE UNLOGGED TABLE rate_limit_buckets (
        key text PRIMARY KEY,
        tokens double precision NOT NULL,
        at_ms double precision NOT NULL,
        allowed boolean NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'generation counts',
    sql: `
      -- Each account's live (not deleted) generations per status, kept by triggers in the same transaction as the
      -- change: a page's total is a lookup here instead of a count over the account's whole history.
      CREATE TABLE generation_counts (
        account_id text NOT NULL,
        status text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (account_id, status)
      );
      CREATE FUNCTION generation_counts_add(account text, old_status text, old_delta int, new_status text, new_delta int) RETURNS void LANGUAGE sql AS $$
        -- Both rows in one statement, in status order: two transactions moving tasks between the same statuses
        -- lock the rows in the same order, so they wait for each other instead of deadlocking.
        INSERT INTO generation_counts AS c (account_id, status, n)
        SELECT account, status, delta FROM (VALUES (old_status, old_delta), (new_status, new_delta)) AS v(status, delta)
        WHERE status IS NOT NULL AND delta <> 0 ORDER BY status
        ON CONFLICT (account_id, status) DO UPDATE SET n = c.n + EXCLUDED.n;
      $$;
      CREATE FUNCTION generation_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          IF NEW.deleted_at IS NULL THEN PERFORM generation_counts_add(NEW.account_id, NULL, 0, NEW.status, 1); END IF;
        ELSIF TG_OP = 'DELETE' THEN
          IF OLD.deleted_at IS NULL THEN PERFORM generation_counts_add(OLD.account_id, OLD.status, -1, NULL, 0); END IF;
        ELSIF OLD.account_id = NEW.account_id THEN
          PERFORM generation_counts_add(NEW.account_id, OLD.status, CASE WHEN OLD.deleted_at IS NULL THEN -1 ELSE 0 END, NEW.status, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE 0 END);
        ELSE
          IF OLD.deleted_at IS NULL THEN PERFORM generation_counts_add(OLD.account_id, OLD.status, -1, NULL, 0); END IF;
          IF NEW.deleted_at IS NULL THEN PERFORM generation_counts_add(NEW.account_id, NULL, 0, NEW.status, 1); END IF;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER generation_counts_insert_delete AFTER INSERT OR DELETE ON generations FOR EACH ROW EXECUTE FUNCTION generation_counts_keep();
      CREATE TRIGGER generation_counts_update AFTER UPDATE ON generations FOR EACH ROW
        WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.account_id IS DISTINCT FROM NEW.account_id)
        EXECUTE FUNCTION generation_counts_keep();
      INSERT INTO generation_counts (account_id, status, n) SELECT account_id, status, count(*) FROM generations WHERE deleted_at IS NULL GROUP BY account_id, status;
    `,
  },
  {
    version: 4,
    name: 'webhook delivery leases',
    sql: `
      -- The node sending a delivery now, and until when: any node may send it, one at a time (claimDelivery).
      ALTER TABLE webhook_deliveries ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
    `,
  },
  {
    version: 5,
    name: 'composition plans and variation batches',
    sql: `
      -- The request's plan (sections) as given, and a variation's batch {id, index, size}; a replay of a batch's
      -- Idempotency-Key finds its other tasks by the batch id.
      ALTER TABLE generations ADD COLUMN plan jsonb, ADD COLUMN batch jsonb;
      CREATE INDEX generations_batch ON generations (account_id, (batch->>'id')) WHERE batch IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'generations made from another (extend, remix)',
    sql: `
      -- {id, operation, section?}: the generation an extend or remix was made from; its render reads that one's audio.
      ALTER TABLE generations ADD COLUMN source jsonb;
    `,
  },
  {
    version: 7,
    name: 'render progress',
    sql: `
      -- How far the running render of a generation has got (0-1), written by whichever worker renders it, for
      -- every API node to show: one row per generation, its attempt guarding a late write from an older run.
      CREATE TABLE render_progress (
        generation_id text PRIMARY KEY REFERENCES generations (id) ON DELETE CASCADE,
        attempt int NOT NULL,
        fraction real NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 8,
    name: 'custom styles',
    sql: `
      -- An account's own styles (POST /v1/styles): a built-in style and what it changes, as given.
      CREATE TABLE custom_styles (
        account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        name text NOT NULL,
        base text NOT NULL,
        description text NOT NULL,
        changes jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, name)
      );
      -- The custom style a task plays, as it was when the task was made (the engine's CustomStyle).
      ALTER TABLE generations ADD COLUMN custom_style jsonb;
    `,
  },
  {
    version: 9,
    name: 'storage kept per account',
    sql: `
      -- What a track takes in storage, as src/domain/generations/storage-budget.ts storageBytesOf reckons it, the
      -- same double arithmetic in the same order (a contract test holds the two to the same bytes): twice the WAV
      -- (the seconds its sections end at, else the duration asked) plus its stems (eight until it has stem files).
      CREATE FUNCTION track_storage_bytes(duration float8, encoding jsonb, stems boolean, stem_files jsonb, sections jsonb)
        RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT ceil(2 * (seconds * rate * 2 * bytes) + (stem_count * seconds) * 176400)::bigint
        FROM (SELECT
          CASE WHEN jsonb_typeof(sections) = 'array' AND jsonb_typeof(sections->-1->'end') = 'number'
                AND (sections->-1->>'end')::float8 > 0 THEN (sections->-1->>'end')::float8 ELSE duration END AS seconds,
          coalesce((encoding->>'sample_rate')::float8, 44100) AS rate,
          coalesce((encoding->>'bit_depth')::float8, 16) / 8 AS bytes,
          CASE WHEN stems IS NOT TRUE THEN 0
               WHEN jsonb_typeof(stem_files) = 'object' THEN (SELECT count(*) FROM jsonb_object_keys(stem_files))
               ELSE 8 END::float8 AS stem_count) AS track;
      $$;
      -- Each account's kept tracks (not failed, not deleted) in bytes, kept by a trigger in the same transaction as
      -- the change: the storage budget, read before every create, is a lookup instead of a sum over the history.
      CREATE TABLE account_storage (account_id text PRIMARY KEY, bytes bigint NOT NULL);
      CREATE FUNCTION generation_storage_of(g generations) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE WHEN g.deleted_at IS NULL AND g.status <> 'failed'
          THEN track_storage_bytes(g.duration, g.encoding, g.stems, g.files->'stems', g.metadata->'sections') ELSE 0 END;
      $$;
      CREATE FUNCTION account_storage_keep() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was bigint := CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE generation_storage_of(OLD) END;
        becomes bigint := CASE WHEN TG_OP = 'DELETE' THEN 0 ELSE generation_storage_of(NEW) END;
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.account_id <> NEW.account_id THEN
          INSERT INTO account_storage AS s VALUES (OLD.account_id, -was) ON CONFLICT (account_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
          was := 0;
        END IF;
        IF becomes <> was THEN
          INSERT INTO account_storage AS s VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END, becomes - was)
            ON CONFLICT (account_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER account_storage_keep AFTER INSERT OR UPDATE OR DELETE ON generations FOR EACH ROW EXECUTE FUNCTION account_storage_keep();
      INSERT INTO account_storage (account_id, bytes)
        SELECT account_id, sum(generation_storage_of(g)) FROM generations g GROUP BY account_id;
    `,
  },
];

/** Applies the migrations this database lacks, one transaction each, under the advisory lock. Returns the versions applied. */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const done = new Set(rows.map((r) => r.version));
      for (const migration of MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}
