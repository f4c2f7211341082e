/** test/api-cancel-delete.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-cancel-delete.test.ts';
