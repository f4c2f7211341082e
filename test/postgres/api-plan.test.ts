/** test/api-plan.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-plan.test.ts';
