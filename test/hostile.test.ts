/**
 * The hostile-request script (scripts/hostile.ts) against a real server: every class it sends gets an answer
 * in the error shape and none is a 5xx or a dropped connection, and the server is healthy afterwards.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { runScript } from './helpers/process.ts';

test('a few hundred hostile requests get no 5xx, no dropped connection and no answer outside the error shape', async (t) => {
  const result = await runScript(fileURLToPath(new URL('../scripts/hostile.ts', import.meta.url)), [], {});
  t.is(result.code, 0, result.stdout + result.stderr);
  t.regex(result.stdout, /^\d{3} hostile requests; \/healthz afterwards: 200; findings: 0$/m);
});
