/** test/api-service.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-service.test.ts';
