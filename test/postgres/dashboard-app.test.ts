/** test/dashboard-app.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../dashboard-app.test.ts';
