/** test/api-idempotency.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-idempotency.test.ts';
