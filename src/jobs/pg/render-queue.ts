/**
 * The PostgreSQL job queue: pg-boss (MIT, maintained, plain SQL on the database the repository already uses).
 * Chosen over Graphile Worker because it has, built in, the three things the render queue needs: a per-job
 * heartbeat that hands a dead worker's job to another within a set time (Graphile Worker keeps a crashed
 * worker's lock for 4 hours), retries with a limit, and sending a job on a connection we pass (`db`), which
 * puts the enqueue inside the transaction that creates the generation and reserves its quota.
 *
 * One queue, `render`; a job is `{ id, account_id }` of a generation, and the generation's record stays the truth:
 * a job only says "look at this one".
 */
import pg from 'pg';
import { PgBoss, type Db } from 'pg-boss';
import { PLANS, isPlanName } from '../../domain/plans.ts';

export const RENDER_QUEUE = 'render';

/** The fields of a render job: which generation to look at. */
export interface RenderJob {
  id: string;
  account_id: string;
}

/** The part of a pg client (pg.Client, pg.PoolClient) a transaction's enqueue needs. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: pg.QueryResultRow[] }>;
}

export interface RenderQueueOptions {
  databaseUrl: string;
  /**
   * Seconds a job's worker may go without a heartbeat before the job is given to another (a worker heartbeats
   * every lease / 2 while it renders). A dead worker's task starts again within about two leases. @default 60
   */
  leaseSeconds?: number;
  /** Starts a task gets (the first and the retries) before it is failed. @default 3 */
  maxAttempts?: number;
  /** Whether this node runs pg-boss's supervision (expiring jobs whose heartbeats stopped). Every node may. @default true */
  supervise?: boolean;
  /** Connections in this node's pool for the queue. @default 4 */
  poolSize?: number;
  onError?: (error: Error) => void;
}

export const DEFAULT_LEASE_SECONDS = 60;
/** pg-boss refuses a shorter heartbeat. */
export const MIN_LEASE_SECONDS = 10;

/**
 * A started pg-boss with the render queue made (idempotently: every node does it at start, the first one wins).
 * Its schema is pg-boss's own (`pgboss`), migrated by pg-boss at start, apart from ours.
 */
export async function openRenderQueue(options: RenderQueueOptions): Promise<PgBoss> {
  const lease = leaseOf(options);
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 4,
    application_name: 'tunesmith-queue',
    supervise: options.supervise ?? true,
    // The supervisor is what notices a stopped heartbeat: looking twice a lease keeps a re-run within ~1.5 leases.
    superviseIntervalSeconds: Math.max(1, Math.floor(lease / 2)),
    monitorIntervalSeconds: Math.max(1, Math.floor(lease / 2)),
    // Workers are woken by NOTIFY at the enqueue's commit, not by their next poll (one held connection per node).
    useListenNotify: true,
  });
  boss.on('error', (error: Error) => options.onError?.(error));
  await boss.start();
  await ensureQueue(boss, RENDER_QUEUE, options);
  return boss;
}

const leaseOf = (options: Pick<RenderQueueOptions, 'leaseSeconds'>): number =>
  Math.max(MIN_LEASE_SECONDS, options.leaseSeconds ?? DEFAULT_LEASE_SECONDS);

/** Makes (or updates) a render queue, idempotently: every node does it at start, the first one wins. */
async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Pick<RenderQueueOptions, 'leaseSeconds' | 'maxAttempts'>,
): Promise<void> {
  const queue = {
    heartbeatSeconds: leaseOf(options),
    notify: true,
    // A render is bounded by its heartbeat, not by a wall-clock limit (a long track with stems takes minutes).
    expireInSeconds: 6 * 3600,
    // One pickup more than the starts a task gets: the last one finds it started as often as it may and fails it,
    // so a task whose workers all died is failed (render_interrupted), not left processing.
    retryLimit: Math.max(0, options.maxAttempts ?? 3),
    retryDelay: 0,
    deleteAfterSeconds: 24 * 3600,
  };
  if (await boss.getQueue(name)) await boss.updateQueue(name, queue);
  else
    await boss.createQueue(name, queue).catch(async (error: unknown) => {
      // Two nodes starting at once: the other one made it.
      if (!(await boss.getQueue(name))) throw error;
    });
}

/**
 * The queue of an account with workers of its own (`tunesmith worker --accounts`): its tasks are sent there, and
 * only those workers take from it. It exists from the first start of such a worker on.
 */
export const dedicatedQueue = (accountId: string): string => `${RENDER_QUEUE}.${accountId}`;

/** Makes the dedicated queues of these accounts: from now on their new tasks go only to their own workers. */
export async function openDedicatedQueues(
  boss: PgBoss,
  accountIds: readonly string[],
  options: Pick<RenderQueueOptions, 'leaseSeconds' | 'maxAttempts'> = {},
): Promise<string[]> {
  const names = accountIds.map(dedicatedQueue);
  for (const name of names) await ensureQueue(boss, name, options);
  routes.delete(boss);
  return names;
}

/**
 * How long a node goes by its list of dedicated queues. Another node's first `tunesmith worker --accounts` start
 * is seen within it (the account's tasks sent meanwhile go to the shared workers, as those queued before it do);
 * one made on this node, at once. A dedicated queue deleted elsewhere is looked up again by each send to it
 * (enqueueRender), so only accounts with workers of their own pay a lookup per create.
 */
export const ROUTES_TTL_MS = 10_000;

/** Each pg-boss handle's dedicated queues, as listed at `at` (one listing at a time: the promise is shared). */
const routes = new WeakMap<PgBoss, { dedicated: Promise<Set<string>>; at: number }>();

async function dedicatedQueues(boss: PgBoss, now = Date.now()): Promise<Set<string>> {
  const known = routes.get(boss);
  if (known && now - known.at < ROUTES_TTL_MS) return known.dedicated;
  const entry = { dedicated: listDedicated(boss), at: now };
  routes.set(boss, entry);
  entry.dedicated.catch(() => {
    if (routes.get(boss) === entry) routes.delete(boss);
  });
  return entry.dedicated;
}

async function listDedicated(boss: PgBoss): Promise<Set<string>> {
  const names = new Set<string>();
  const limit = 1000;
  for (let after: string | undefined; ; ) {
    const page = await boss.getQueues(undefined, { limit, ...(after === undefined ? {} : { after }) });
    for (const queue of page) if (queue.name.startsWith(`${RENDER_QUEUE}.`)) names.add(queue.name);
    if (page.length < limit) return names;
    after = page.at(-1)?.name;
  }
}

/** The queue an account's tasks go to: its dedicated one if it has workers of its own, else the shared one. */
export async function queueOf(boss: PgBoss, accountId: string): Promise<string> {
  const dedicated = dedicatedQueue(accountId);
  return (await dedicatedQueues(boss)).has(dedicated) ? dedicated : RENDER_QUEUE;
}

/** pg-boss's view of one of our connections. */
export const asBossDb = (client: SqlClient): Db => ({
  executeSql: (text: string, values?: unknown[]) => client.query(text, values),
});

/**
 * Queues a generation's render on `client`, inside the caller's transaction: the job exists exactly when the
 * generation does. Order: the account's plan rank first (src/domain/plans.ts: every job of a better rank before any of
 * a worse one, as the in-process FairQueue does), then fairness between accounts: minus the number of the
 * account's jobs already waiting, so every account's first waiting job goes before anyone's second (the
 * round-robin of the FairQueue, decided at enqueue), with no cap on how many of one account's tasks run when
 * nobody else waits.
 */
export async function enqueueRender(
  boss: PgBoss,
  client: SqlClient,
  generation: RenderJob,
  /** The account's plan rank (src/domain/plans.ts); lower starts first. */
  rank = 0,
): Promise<void> {
  let queue = await queueOf(boss, generation.account_id);
  // A dedicated queue this node listed may have been deleted since (the account given back to the shared workers),
  // which pg-boss's deferred check would find only at the caller's commit, failing the create: so it is looked up.
  if (queue !== RENDER_QUEUE && !(await boss.getQueue(queue))) {
    routes.delete(boss);
    queue = RENDER_QUEUE;
  }
  const db = asBossDb(client);
  // The account's jobs not yet taken ('created' or 'retry'), in this transaction's view.
  const waiting = (
    await boss.findJobs<RenderJob>(queue, {
      data: { account_id: generation.account_id },
      queued: true,
      limit: MAX_LISTED,
      db,
    })
  ).length;
  const job: RenderJob = { id: generation.id, account_id: generation.account_id };
  await boss.send(queue, job, {
    db,
    // pg-boss takes the highest priority first; ranks are small, and no account has a million jobs waiting.
    priority: -rank * RANK_STEP - waiting,
    group: { id: generation.account_id },
  });
}

/** The render rank of an account's tasks: its plan's priority (src/domain/plans.ts), read in the caller's transaction. */
export async function rankOf(client: SqlClient, accountId: string): Promise<number> {
  const { rows } = await client.query('SELECT plan FROM accounts WHERE id = $1', [accountId]);
  return planRank(rows[0]?.plan);
}

const planRank = (plan: unknown): number => (isPlanName(plan) ? PLANS[plan].priority : 0);

/** How far apart two plan ranks are in pg-boss's priority: more than any account's count of waiting jobs. */
const RANK_STEP = 1_000_000;

/** The most jobs pg-boss's findJobs lists at once. */
export const MAX_LISTED = 100_000;

/** Held while one node looks for tasks without a job, so two starting nodes do not both queue them. */
const REQUEUE_LOCK = 0x7475_6e65;

/**
 * Queues a job for every unfinished task that has none waiting or running: tasks copied in by `tunesmith migrate`
 * from a data dir, and any whose job ended without ending the task. Runs at each node's start, once at a time.
 * Returns how many it queued.
 */
export async function requeueOrphans(boss: PgBoss, databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'tunesmith-queue' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows: locked } = await client.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [REQUEUE_LOCK]);
    if (!locked[0]?.ok) {
      await client.query('ROLLBACK');
      return 0;
    }
    const { rows } = await client.query(
      `SELECT g.id, g.account_id, a.plan FROM generations g LEFT JOIN accounts a ON a.id = g.account_id
       WHERE g.status IN ('pending', 'processing') AND g.deleted_at IS NULL
       ORDER BY g.created_at, g.id`,
    );
    let queued = 0;
    for (const row of rows) {
      const queue = await queueOf(boss, row.account_id);
      const jobs = await boss.findJobs<RenderJob>(queue, { data: { id: row.id }, db: asBossDb(client) });
      if (jobs.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active')) continue;
      await enqueueRender(boss, client, { id: row.id, account_id: row.account_id }, planRank(row.plan));
      queued++;
    }
    await client.query('COMMIT');
    return queued;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
