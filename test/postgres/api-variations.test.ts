/** test/api-variations.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-variations.test.ts';
