/** test/webhooks-api.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../webhooks-api.test.ts';
