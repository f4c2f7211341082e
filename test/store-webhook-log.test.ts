/**
 * The delivery log shows a delivery's change only once it is on disk: a crash right after a client saw an
 * attempt can no longer take it back (the webhooks-restart race, where a kill -9 between the two lost it).
 */
import test from 'ava';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoalescingWriter, type OpenFile } from '../src/store/atomic-file.ts';
import { WebhookFile } from '../src/store/webhook-file.ts';
import type { WebhookDelivery } from '../src/domain/webhooks/types.ts';

const AT = '2026-01-01T00:00:00.000Z';

test('an attempt is in the delivery log only once its save has landed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-webhook-log-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Every write waits at its opening until the test lets it through.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const gated: OpenFile = async (path, flags, mode) => {
    await gate;
    return open(path, flags, mode);
  };
  const file = await WebhookFile.open(join(dir, 'webhooks.json'), new CoalescingWriter({ open: gated }));
  const delivery: WebhookDelivery = {
    id: 'whd_1',
    event_id: 'evt_1',
    account_id: 'acc_1',
    endpoint_id: null,
    url: 'https://hooks.example.com/a',
    state: 'pending',
    attempts: [],
    round_attempts: 0,
    next_attempt_at: AT,
    created_at: AT,
    updated_at: AT,
  };
  file.addEvent(
    {
      id: 'evt_1',
      type: 'generation.completed',
      account_id: 'acc_1',
      generation_id: 'gen_1',
      created_at: AT,
      transition_at: AT,
    },
    [delivery],
  );

  const saved = file.updateDelivery('whd_1', {
    attempts: [{ at: AT, status_code: 500, latency_ms: 5, error: null }],
    round_attempts: 1,
  });
  const shown = async () => (await file.listDeliveries('acc_1', { limit: 10, offset: 0 })).items[0]!.attempts.length;
  t.is(await shown(), 0);
  t.is((await file.getDelivery('whd_1'))!.attempts.length, 0);
  // The worker's own view is the newest: it must not send the attempt again.
  t.is((await file.pendingDeliveries())[0]!.round_attempts, 1);
  release();
  await saved;
  t.is(await shown(), 1);
  t.is((await file.getDelivery('whd_1'))!.attempts.length, 1);
});
