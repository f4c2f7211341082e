export {
  openPostgresRepository,
  PostgresRepository,
  type EnqueueInTransaction,
  type OpenPostgresOptions,
} from './postgres-repository.ts';
export { migrate, MIGRATIONS } from './migrations.ts';
export { oneRow, type Queryable } from './rows.ts';
export { DatabaseUnavailableError, databaseName } from './errors.ts';
