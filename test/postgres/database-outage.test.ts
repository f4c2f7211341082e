/**
 * A PostgreSQL node whose database goes away answers as a file server on a full disk does (503
 * storage_unavailable, Retry-After), says so on /healthz, and serves again once the database is back, with no
 * restart of its own. This file's process has its own throwaway cluster (one per test process), which the test
 * stops and starts: no other test shares it.
 */
import test from 'ava';
import { openPostgresRepository } from '../../src/store/postgres/index.ts';
import { freshDatabase, postgresServer } from '../helpers/postgres.ts';
import { startServerProcess, tempDataDir } from '../helpers/process.ts';

interface ErrorBody {
  error: { type: string; code: string; message: string };
}

test('with its database stopped a node answers 503 storage_unavailable and /healthz says the database is unreachable; started again, requests succeed without restarting the node', async (t) => {
  const url = await freshDatabase(t);
  const cluster = await postgresServer();
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'outage' });
  const { key } = await repository.createKey(account.id, 'outage test');
  await repository.close();
  const node = await startServerProcess(t, await tempDataDir(t), {
    TUNESMITH_DATABASE_URL: url,
    TUNESMITH_WORKERS: '0',
  });
  t.truthy(node.url, node.output());
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const generate = () =>
    fetch(`${node.url}/v1/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }),
    });
  t.is((await fetch(`${node.url}/healthz`)).status, 200);

  cluster.stop();
  // Should the test fail while the cluster is down, the database's teardown still needs it (teardowns run last first).
  let stopped = true;
  t.teardown(() => {
    if (stopped) cluster.start();
  });

  for (const response of [await generate(), await fetch(`${node.url}/v1/account`, { headers })]) {
    t.is(response.status, 503);
    t.is(response.headers.get('retry-after'), '60');
    const body = (await response.json()) as ErrorBody;
    t.deepEqual(body, {
      error: {
        type: 'service_unavailable_error',
        code: 'storage_unavailable',
        message: 'The server cannot save anything right now: its storage is unreachable. Retry later.',
      },
    });
  }
  const health = await fetch(`${node.url}/healthz`);
  t.is(health.status, 503);
  t.like(await health.json(), {
    error: {
      code: 'service_unavailable',
      message: 'Tunesmith is not ready: the store (its PostgreSQL database) is unreachable. Check the server log.',
    },
  });

  cluster.start();
  stopped = false;
  t.is((await fetch(`${node.url}/healthz`)).status, 200);
  const created = await generate();
  t.is(created.status, 202, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  t.is((await fetch(`${node.url}/v1/generation/${id}`, { headers })).status, 200);
});
