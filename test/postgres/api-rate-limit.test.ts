/** test/api-rate-limit.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-rate-limit.test.ts';
