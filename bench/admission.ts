/**
 * What admitting a task reads (issue 29 part 8): before each POST that makes tasks, the account's unfinished tasks
 * (its task bound) and the sum of what its tracks take (its storage budget, Repository.storageUsed). Measured on the
 * file store and on PostgreSQL for an account with HISTORY (100k) finished tracks and for a new one, alternating
 * rounds, medians of BENCH_ROUNDS × 20 calls. The database is BENCH_DATABASE_URL (an empty one), or else a throwaway
 * cluster like the tests'.
 *
 *   npm run bench:admission            BENCH_HISTORY=10000 for a shorter history
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repository } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { seedGenerationsInPostgres } from '../src/store/postgres/seed.ts';
import { seedGenerations } from '../src/store/seed.ts';
import { emptyDatabase } from './api-backends.ts';
import { HISTORY, ROUNDS } from './api-common.ts';

const CALLS = 20;

/** The reads Generations.#admit makes for one POST (generations.ts #unfinished and #overBudget). */
async function admissionReads(repository: Repository, accountId: string): Promise<void> {
  const page = { limit: 1000, offset: 0 };
  await Promise.all([
    repository.listGenerations(accountId, { ...page, status: 'pending' }),
    repository.listGenerations(accountId, { ...page, status: 'processing' }),
  ]);
  await repository.storageUsed(accountId);
}

async function medianMs(run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-admission-'));
const database = await emptyDatabase();
const files = await openStore({ dataDir });
const postgres = await openPostgresRepository({ url: database.url, poolSize: 10 });
const sides: { name: string; repository: Repository; long: string; fresh: string }[] = [];
for (const [name, repository] of [
  ['files', files],
  ['postgres', postgres],
] as const) {
  const long = await repository.createAccount({ plan: 'enterprise', name: 'long history' });
  const fresh = await repository.createAccount({ plan: 'enterprise', name: 'new' });
  sides.push({ name, repository, long: long.id, fresh: fresh.id });
}
// The file store reads its history when opened: seeded files first, then the store opened again.
await files.close();
await seedGenerations(dataDir, sides[0]!.long, HISTORY);
sides[0]!.repository = await openStore({ dataDir });
await seedGenerationsInPostgres(postgres.pool, sides[1]!.long, HISTORY);
console.log(
  `admission reads per POST (task bound + storage budget), ${HISTORY} finished tracks vs none, median of ${CALLS} calls`,
);
const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    for (const [label, account] of [
      [`${side.name}, ${HISTORY} tracks`, side.long],
      [`${side.name}, new account`, side.fresh],
    ] as const) {
      const ms = await medianMs(() => admissionReads(side.repository, account));
      results.set(label, [...(results.get(label) ?? []), ms]);
    }
  }
}
for (const [label, runs] of results)
  console.log(`  ${label.padEnd(28)} ${runs.map((ms) => `${ms.toFixed(2)} ms`).join('  ')}`);
await sides[0]!.repository.close();
await postgres.close();
await database.drop();
await rm(dataDir, { recursive: true, force: true });
