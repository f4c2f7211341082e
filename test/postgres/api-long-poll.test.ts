/** test/api-long-poll.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-long-poll.test.ts';
