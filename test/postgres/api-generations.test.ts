/** test/api-generations.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-generations.test.ts';
