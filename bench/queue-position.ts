/**
 * What one read of a waiting task's queue_position and estimated_time costs in PostgreSQL mode with a long queue:
 * WAITING tasks (default 5,000) from ACCOUNTS accounts wait in the shared pg-boss queue, and QueueEstimates.live is
 * asked about one task at the back (GET /v1/generation/:id) and about a page of 20 (GET /v1/generations), as an API
 * node does. Each tree named has its own QueueEstimates on the same database; rounds alternate the trees so the
 * machine's load hits them alike. Medians in milliseconds. The database is a throwaway cluster like the tests'.
 *
 *   npm run bench:queue-position [-- --waiting 5000 --rounds 5 --trees /path/to/old,.]
 */
import { resolve, join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Generation } from '../src/domain/model.ts';
import { openRenderQueue, RENDER_QUEUE, type RenderJob } from '../src/jobs/pg/render-queue.ts';
import { migrate } from '../src/store/postgres/index.ts';
import { seededGeneration } from '../src/store/seed.ts';
import { admin, postgresServer } from '../test/helpers/postgres.ts';

const { values } = parseArgs({
  options: {
    waiting: { type: 'string', default: '5000' },
    accounts: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    reads: { type: 'string', default: '20' },
    trees: { type: 'string', default: '.' },
  },
});
const WAITING = Number(values.waiting);
const ACCOUNTS = Number(values.accounts);
const READS = Number(values.reads);
const trees = values.trees.split(',').map((tree) => resolve(tree));

interface Estimates {
  live(generations: readonly Generation[]): Promise<Map<string, { queue_position: number }>>;
}

const server = await postgresServer();
const name = `bench_queue_${process.pid}`;
await admin(server, `CREATE DATABASE ${name}`);
const url = `postgres://postgres@127.0.0.1:${server.port}/${name}`;
const db = new pg.Pool({ connectionString: url, max: 4 });
const boss = await openRenderQueue({ databaseUrl: url, supervise: false });
try {
  await migrate(db);
  // The tasks, oldest first, round-robin over the accounts, each with its job.
  const tasks = Array.from({ length: WAITING }, (_, n) => ({
    ...seededGeneration(`acct_${n % ACCOUNTS}`, WAITING - n, { statuses: ['pending'] }),
    started_at: null,
  }));
  await db.query(
    `INSERT INTO generations (id, account_id, status, prompt, duration, style, instrumental, seed, created_at, quota_month)
     SELECT id, account_id, status, prompt, duration, style, instrumental, seed, created_at, quota_month
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, account_id text, status text, prompt text, duration float8,
         style text, instrumental boolean, seed bigint, created_at timestamptz, quota_month text)`,
    [JSON.stringify(tasks)],
  );
  for (let start = 0; start < WAITING; start += 1000) {
    await boss.insert(
      RENDER_QUEUE,
      tasks.slice(start, start + 1000).map((task, i) => ({
        data: { id: task.id, account_id: task.account_id } satisfies RenderJob,
        // Each its own priority, so the line's order is the posting order (enqueueRender ties within a round).
        priority: -(start + i),
        group: { id: task.account_id },
      })),
    );
  }
  const last = tasks.at(-1)!;
  const page = tasks.filter((task) => task.account_id === last.account_id).slice(-20);

  const sides = await Promise.all(
    trees.map(async (tree) => {
      const module = (await import(join(tree, 'src/jobs/pg/queue-estimates.ts'))) as {
        QueueEstimates: new (db: pg.Pool, boss: unknown) => Estimates;
      };
      return { tree, estimates: new module.QueueEstimates(db, boss), one: [] as number[], list: [] as number[] };
    }),
  );
  const time = async (read: () => Promise<unknown>) => {
    const started = performance.now();
    await read();
    return performance.now() - started;
  };
  // Each side's answer, checked once: the last task is at the back of the line.
  for (const side of sides) {
    const position = (await side.estimates.live([last])).get(last.id)?.queue_position;
    if (position !== WAITING) throw new Error(`${side.tree}: the last task is at ${position}, not ${WAITING}`);
  }
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      for (let read = 0; read < READS; read++) {
        side.one.push(await time(() => side.estimates.live([last])));
        side.list.push(await time(() => side.estimates.live(page)));
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${WAITING} waiting tasks of ${ACCOUNTS} accounts; medians of ${values.rounds} × ${READS} reads`);
  for (const side of sides)
    console.log(
      `  ${side.tree}: one task at the back ${median(side.one).toFixed(1)} ms, a page of 20 ${median(side.list).toFixed(1)} ms`,
    );
} finally {
  await boss.stop({ graceful: false });
  await db.end();
  await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
