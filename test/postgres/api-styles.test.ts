/** test/api-styles.test.ts on PostgreSQL. */
import './use-postgres.ts';
import '../api-styles.test.ts';
