/** test/webhooks-delivery.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../webhooks-delivery.test.ts';
