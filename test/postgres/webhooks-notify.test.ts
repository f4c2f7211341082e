/**
 * An API node sends the webhook of a task a worker process completed when the worker's commit is announced
 * (LISTEN/NOTIFY on the node's listening connection), not at its next poll: the poll is set to an hour here, so a
 * delivery within the test's time can only have been woken by the notification.
 */
import test from 'ava';
import { openPostgresRepository } from '../../src/store/postgres/index.ts';
import { freshDatabase } from '../helpers/postgres.ts';
import { startServerProcess, startWorkerProcess, tempDataDir } from '../helpers/process.ts';
import { startReceiver, type Received } from '../helpers/webhooks.ts';

test("a worker process's completion wakes the API node's webhook sender at once, with its hour-long poll far off", async (t) => {
  t.timeout(180_000);
  const receiver = await startReceiver(t);
  const url = await freshDatabase(t);
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'enterprise', name: 'notify' });
  const { key } = await repository.createKey(account.id, 'notify test');
  await repository.close();
  const dataDir = await tempDataDir(t);
  const env = {
    TUNESMITH_DATABASE_URL: url,
    TUNESMITH_WEBHOOK_ALLOW_PRIVATE: '1',
    TUNESMITH_WEBHOOK_POLL_SECONDS: '3600',
  };
  const api = await startServerProcess(t, dataDir, { ...env, TUNESMITH_WORKERS: '0' });
  t.truthy(api.url, api.output());

  const res = await fetch(`${api.url}/v1/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a short calm piano piece', duration: 30, callback_url: receiver.url }),
  });
  t.is(res.status, 202);
  const { id } = (await res.json()) as { id: string };
  // The worker starts after the API node sent what it had: the completion is recorded by the worker alone.
  const worker = await startWorkerProcess(t, dataDir, { ...env, TUNESMITH_WORKERS: '1' });
  t.truthy(worker.url, worker.output());

  // Each event the worker recorded (started, then completed) arrives in turn.
  let completed: Received | undefined;
  for (let count = 1; !completed && count <= 4; count++) {
    completed = (await receiver.waitFor(count, 150_000)).find((r) => r.json.type === 'generation.completed');
  }
  t.is(completed?.json.data.id, id);
});
