/** test/api-account-bounds.test.ts on PostgreSQL: the task bound, and an idempotent retry at it replayed (replayOnly). */
import './use-postgres.ts';
import '../api-account-bounds.test.ts';
