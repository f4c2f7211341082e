/** test/generation-lifecycle.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../generation-lifecycle.test.ts';
