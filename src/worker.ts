/**
 * A render worker process (`tunesmith worker`): render threads that take jobs from the PostgreSQL queue, with no
 * HTTP. Any number run, on any machine that reaches the database and the audio storage; each task's audio goes to
 * the storage the API nodes serve it from, its transitions and their webhook events to the database.
 */
import { createRenderPool } from '../engine/index.ts';
import { openBackend } from './backend.ts';
import { ConfigError, type Config } from './config.ts';
import { GenerationLifecycle } from './domain/generations/lifecycle.ts';
import { PLAN_LABELS } from './domain/plan-label.ts';
import { limitsFor, plansIncluding } from './domain/plans.ts';
import { openSharedQueue } from './jobs/pg/index.ts';
import type { Logger } from './log.ts';

export interface WorkerHandle {
  /** Stops taking jobs; running renders finish (up to 30 s) or go back to the queue for another worker. */
  close(): Promise<void>;
}

export async function startWorker(
  config: Config,
  options: {
    logger: Logger;
    print: (text: string) => void;
    /** Render only these accounts' tasks (dedicated workers); other workers then leave them. */
    accounts?: readonly string[];
  },
): Promise<WorkerHandle> {
  const { logger } = options;
  if (!config.databaseUrl) {
    throw new ConfigError(
      'TUNESMITH_DATABASE_URL',
      'a worker takes its tasks from PostgreSQL: set it to the database the API nodes use, like postgres://user:password@host:5432/tunesmith.',
    );
  }
  if (config.workers === 0) throw new ConfigError('TUNESMITH_WORKERS', 'a worker needs at least 1 render thread.');
  // The records first: a database that cannot be reached is their one-sentence error.
  const backend = await openBackend(config, { logger });
  const steps: (() => Promise<void>)[] = [() => backend.close()];
  const unwind = async () => {
    for (const step of steps.reverse()) await step().catch(() => undefined);
  };
  try {
    const accounts = options.accounts ?? [];
    for (const id of accounts) {
      const account = await backend.repository.getAccount(id);
      if (!account) throw new ConfigError('--accounts', `there is no account ${id} in ${backend.where}.`);
      if (!limitsFor(account).dedicated_workers) {
        // Dedicated workers are a plan's feature (src/domain/plans.ts): the operator moves the account first.
        const including = plansIncluding((plan) => plan.dedicated_workers);
        throw new ConfigError(
          '--accounts',
          `account ${id} is on the ${PLAN_LABELS[account.plan]} plan, which has no dedicated workers (${including.map((name) => PLAN_LABELS[name]).join(', ')} has). Move it first: npm run -s cli -- accounts set-plan ${id} ${including[0] ?? 'enterprise'}.`,
        );
      }
    }
    const queue = await openSharedQueue({ ...config, databaseUrl: config.databaseUrl }, logger);
    steps.push(() => queue.close());
    await queue.requeueOrphans();
    const pool = createRenderPool({ workers: config.workers });
    steps.push(() => pool.close());
    // No webhook sender here: the API nodes find the events this worker's transitions record, and send them.
    const lifecycle = new GenerationLifecycle({ repository: backend.repository });
    const worker = await queue.work({
      repository: backend.repository,
      blobs: backend.blobs,
      lifecycle,
      pool,
      logger,
      ...(backend.database ? { db: backend.database } : {}),
      ...(accounts.length > 0 ? { accounts } : {}),
    });
    steps.push(() => worker.close());
    logger.info({ database: backend.where, workers: pool.size, accounts }, 'worker started');
    options.print(
      `Tunesmith worker taking render jobs from ${backend.where} (${pool.size} render thread(s))${accounts.length > 0 ? `, only for ${accounts.join(', ')}` : ''}`,
    );
  } catch (error) {
    await unwind();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    close() {
      closing ??= unwind();
      return closing;
    },
  };
}
