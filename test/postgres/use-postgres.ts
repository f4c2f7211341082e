/**
 * Imported first by each file in test/postgres/: every startApp() of the suite imported after it runs on a real
 * PostgreSQL (a fresh database per test) instead of the data dir's files. The suites themselves are the same
 * files that run on the files backend, so both backends are held to the same behaviour.
 */
import { useBackend } from '../helpers/app.ts';

useBackend('postgres');
