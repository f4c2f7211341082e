/** test/api-derive.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-derive.test.ts';
