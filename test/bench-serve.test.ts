/** The server the client-side benches start (bench/serve.ts): it answers with the key it printed, and stops. */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchServer } from '../bench/serve.ts';

test('the bench server answers the key its first start printed, and stop() ends it', async (t) => {
  const server = await startBenchServer();
  t.teardown(() => server.stop());
  const res = await fetch(`${server.url}/v1/account`, { headers: server.auth });
  t.is(res.status, 200, await res.text());
  await server.stop();
  t.not(server.child.exitCode ?? server.child.signalCode, null);
});

test('a tree that cannot serve is an error that says so, not a bench that waits forever', async (t) => {
  const empty = await mkdtemp(join(tmpdir(), 'tunesmith-no-tree-'));
  t.teardown(() => rm(empty, { recursive: true, force: true }));
  await t.throwsAsync(startBenchServer(empty), { message: new RegExp(`The server in ${empty} exited`) });
});
