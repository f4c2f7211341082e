/** test/api-storage-budget.test.ts on PostgreSQL: the storage budget read from the database's own records. */
import './use-postgres.ts';
import '../api-storage-budget.test.ts';
