/** test/api-quota.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-quota.test.ts';
