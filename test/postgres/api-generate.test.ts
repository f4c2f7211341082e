/** test/api-generate.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-generate.test.ts';
