/** The Repository contract (test/contracts/repository.ts) on PostgreSQL: a real server, a fresh database per test. */
import test from 'ava';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { repositoryContract } from './contracts/repository.ts';
import { freshDatabase } from './helpers/postgres.ts';

repositoryContract(test, 'postgres', async (t) => {
  const repository = await openPostgresRepository({ url: await freshDatabase(t) });
  return { repository, close: () => repository.close() };
});
