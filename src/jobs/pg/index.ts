/**
 * The PostgreSQL render queue as a node opens it: the pg-boss handle, the enqueue the repository calls inside
 * each create transaction, and, where the node has render threads, the worker that takes jobs. `tunesmith serve`
 * (any number, TUNESMITH_WORKERS=0 for API only) and `tunesmith worker` both open it this way.
 */
import type { PgBoss } from 'pg-boss';
import type { Config } from '../../config.ts';
import type { Logger } from '../../log.ts';
import type { EnqueueInTransaction } from '../../store/postgres/index.ts';
import { enqueueRender, openDedicatedQueues, openRenderQueue, rankOf, requeueOrphans } from './render-queue.ts';
import { startRenderWorker, type RenderWorker, type RenderWorkerOptions } from './render-worker.ts';

export { SharedJobQueue } from './api-job-queue.ts';
export type { RenderWorker } from './render-worker.ts';

export interface SharedQueue {
  boss: PgBoss;
  enqueue: EnqueueInTransaction;
  /** Queues the unfinished tasks that have no job (see requeueOrphans): once the repository's tables exist. */
  requeueOrphans(): Promise<void>;
  /**
   * Takes jobs onto `pool` until closed: from the shared queue, or with `accounts` only those accounts' tasks
   * (their dedicated queues, made here: from now on their new tasks go only to workers started so).
   */
  work(options: Omit<RenderWorkerOptions, 'boss' | 'queues'> & { accounts?: readonly string[] }): Promise<RenderWorker>;
  close(): Promise<void>;
}

export async function openSharedQueue(config: Config & { databaseUrl: string }, logger: Logger): Promise<SharedQueue> {
  const boss = await openRenderQueue({
    databaseUrl: config.databaseUrl,
    leaseSeconds: config.jobLeaseSeconds,
    onError: (error) => logger.warn({ component: 'queue', err: error }, 'job queue error'),
  });
  return {
    boss,
    // The rank comes with the create (Generations passes the plan's); a create without one reads the account's plan.
    enqueue: async (db, generation, rank) =>
      enqueueRender(boss, db, generation, rank ?? (await rankOf(db, generation.account_id))),
    async requeueOrphans() {
      const queued = await requeueOrphans(boss, config.databaseUrl);
      if (queued > 0) logger.info({ tasks: queued }, 'queued unfinished tasks that had no job');
    },
    async work({ accounts, ...options }) {
      const queues =
        accounts && accounts.length > 0
          ? await openDedicatedQueues(boss, accounts, { leaseSeconds: config.jobLeaseSeconds })
          : undefined;
      return startRenderWorker({ ...options, boss, ...(queues ? { queues } : {}) });
    },
    // Not graceful: the workers were closed first (their renders finished or were handed back).
    close: () => boss.stop({ graceful: false }),
  };
}
