/**
 * The behaviour every Repository must have, whatever keeps the records: run with a factory for each backend
 * (test/store-contract.test.ts runs it on the data dir's files). Each test gets a fresh, empty repository.
 */
import type { ExecutionContext, TestFn } from 'ava';
import { EmailTakenError } from '../../src/domain/errors.ts';
import type { Repository } from '../../src/store/repository.ts';
import { IdempotencyConflictError, NotFoundError, QuotaExceededError } from '../../src/domain/errors.ts';
import type { NewGeneration, TrackSize } from '../../src/domain/model.ts';
import { storageBytesOf } from '../../src/domain/generations/storage-budget.ts';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../src/domain/webhooks/types.ts';
import { StyleNameTakenError, type CustomStyleRecord } from '../../src/domain/custom-styles.ts';
import { makeCustomStyle } from '../../engine/index.ts';
import { newGeneration } from '../helpers/new-generation.ts';

/** Makes a fresh, empty repository for a test (the test's context lets a factory register its own teardowns). */
export type RepositoryFactory = (t: ExecutionContext) => Promise<{ repository: Repository; close(): Promise<void> }>;

const request = newGeneration;

const style = (accountId: string, name: string): CustomStyleRecord => ({
  account_id: accountId,
  name,
  base: 'lofi',
  description: 'Lo-fi on a flute',
  changes: { instruments: { lead: 'flute' }, bpm: { min: 60, max: 70 } },
  created_at: '2026-03-15T12:00:00.000Z',
});

const endpoint = (accountId: string, id = 'we_1'): WebhookEndpoint => ({
  id,
  account_id: accountId,
  url: 'https://hooks.example.com/a',
  events: ['generation.completed', 'generation.failed'],
  description: null,
  created_at: '2026-03-15T12:00:00.000Z',
  failing_since: null,
  disabled_at: null,
  disabled_reason: null,
});

function eventOf(
  accountId: string,
  generationId: string,
  id = 'evt_1',
): { event: WebhookEvent; deliveries: WebhookDelivery[] } {
  const at = '2026-03-15T12:00:00.000Z';
  return {
    event: {
      id,
      type: 'generation.completed',
      account_id: accountId,
      generation_id: generationId,
      created_at: at,
      transition_at: at,
    },
    deliveries: [
      {
        id: `whd_${id}`,
        event_id: id,
        account_id: accountId,
        endpoint_id: 'we_1',
        url: 'https://hooks.example.com/a',
        state: 'pending',
        attempts: [],
        round_attempts: 0,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      },
    ],
  };
}

export function repositoryContract(test: TestFn, backend: string, factory: RepositoryFactory): void {
  const setup = async (t: ExecutionContext) => {
    const { repository, close } = await factory(t);
    t.teardown(close);
    const account = await repository.createAccount({ plan: 'developer', email: 'a@example.com' });
    return { repository, account };
  };
  const title = (claim: string) => `${backend}: ${claim}`;

  test(title('an account reads back as created, and a changed copy does not change it'), async (t) => {
    const { repository, account } = await setup(t);
    const read = await repository.getAccount(account.id);
    t.deepEqual(read, account);
    read!.plan = 'enterprise';
    t.is((await repository.getAccount(account.id))?.plan, 'developer');
  });

  test(title('updating an unknown account is a NotFoundError'), async (t) => {
    const { repository } = await setup(t);
    await t.throwsAsync(repository.updateAccount('acct_missing', { plan: 'starter' }), { instanceOf: NotFoundError });
  });

  test(title('a key is found by its secret, never stored as it, and revoking it stamps revoked_at'), async (t) => {
    const { repository, account } = await setup(t);
    const { key, record } = await repository.createKey(account.id, 'ci');
    t.is((await repository.findKey(key))?.id, record.id);
    t.not(record.hash, key);
    t.is(await repository.findKey(`${key}x`), undefined);
    t.truthy((await repository.revokeKey(record.id)).revoked_at);
    t.truthy((await repository.findKey(key))?.revoked_at);
  });

  test(title('a generation is created processing and counted against its month'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation, replayed } = await repository.createGeneration(request(account.id), { monthlyQuota: 10 });
    t.false(replayed);
    t.like(generation, { status: 'processing', attempts: 0, files: null });
    t.is(await repository.usage(account.id, generation.quota_month), 1);
  });

  test(title('parallel creates never pass the quota'), async (t) => {
    const { repository, account } = await setup(t);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, seed) =>
        repository.createGeneration(request(account.id, { seed }), { monthlyQuota: 5 }),
      ),
    );
    t.is(results.filter((r) => r.status === 'fulfilled').length, 5);
    t.true(results.every((r) => r.status === 'fulfilled' || r.reason instanceof QuotaExceededError));
  });

  test(
    title('the same idempotency key and body replays the first generation; another body is a conflict'),
    async (t) => {
      const { repository, account } = await setup(t);
      const first = await repository.createGeneration(request(account.id), {
        monthlyQuota: null,
        idempotency: { key: 'k', bodyHash: 'h1' },
      });
      const again = await repository.createGeneration(request(account.id), {
        monthlyQuota: null,
        idempotency: { key: 'k', bodyHash: 'h1' },
      });
      t.true(again.replayed);
      t.is(again.generation.id, first.generation.id);
      await t.throwsAsync(
        repository.createGeneration(request(account.id), {
          monthlyQuota: null,
          idempotency: { key: 'k', bodyHash: 'h2' },
        }),
        { instanceOf: IdempotencyConflictError },
      );
    },
  );

  test(title('a batch is created whole or not at all: the quota must take every task of it'), async (t) => {
    const { repository, account } = await setup(t);
    const batch = (index: number) => ({
      ...request(account.id, { seed: index }),
      batch: { id: 'batch_1', index, size: 3 },
    });
    await repository.createGeneration(request(account.id), { monthlyQuota: 3 });
    await t.throwsAsync(repository.createGenerations([batch(0), batch(1), batch(2)], { monthlyQuota: 3 }), {
      instanceOf: QuotaExceededError,
    });
    t.is((await repository.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
    const { generations } = await repository.createGenerations([batch(0), batch(1)], { monthlyQuota: 3 });
    t.deepEqual(
      generations.map((g) => g.batch),
      [
        { id: 'batch_1', index: 0, size: 3 },
        { id: 'batch_1', index: 1, size: 3 },
      ],
    );
    t.is(await repository.usage(account.id, generations[0]!.quota_month), 3);
  });

  test(title('the same idempotency key replays a whole batch, in its order'), async (t) => {
    const { repository, account } = await setup(t);
    const inputs = [0, 1, 2].map((index) => ({
      ...request(account.id, { seed: index }),
      batch: { id: 'batch_2', index, size: 3 },
    }));
    const first = await repository.createGenerations(inputs, {
      monthlyQuota: null,
      idempotency: { key: 'b', bodyHash: 'h' },
    });
    const again = await repository.createGenerations(inputs, {
      monthlyQuota: null,
      idempotency: { key: 'b', bodyHash: 'h' },
    });
    t.true(again.replayed);
    t.deepEqual(
      again.generations.map((g) => g.id),
      first.generations.map((g) => g.id),
    );
  });

  test(title('a transaction reads its own writes and commits them when it returns'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    const seen = await repository.transaction(async (tx) => {
      await tx.updateGeneration(generation.id, { status: 'completed', title: 'Done' });
      return tx.getGeneration(generation.id);
    });
    t.like(seen, { status: 'completed', title: 'Done' });
    t.like(await repository.getGeneration(account.id, generation.id), { status: 'completed', title: 'Done' });
  });

  test(title('a transaction whose function throws commits nothing, neither the change nor its event'), async (t) => {
    const { repository, account } = await setup(t);
    await repository.webhooks.addEndpoint(endpoint(account.id));
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    await t.throwsAsync(
      repository.transaction(async (tx) => {
        await tx.updateGeneration(generation.id, { status: 'completed' });
        const { event, deliveries } = eventOf(account.id, generation.id);
        await tx.addEvent(event, deliveries);
        throw new Error('changed my mind');
      }),
      { message: 'changed my mind' },
    );
    t.is((await repository.getGeneration(account.id, generation.id))?.status, 'processing');
    t.is(await repository.webhooks.getEvent('evt_1'), undefined);
    t.deepEqual(await repository.webhooks.pendingDeliveries(), []);
  });

  test(title('a transition and its event are committed together'), async (t) => {
    const { repository, account } = await setup(t);
    await repository.webhooks.addEndpoint(endpoint(account.id));
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    await repository.transaction(async (tx) => {
      await tx.updateGeneration(generation.id, { status: 'completed' });
      const { event, deliveries } = eventOf(account.id, generation.id);
      await tx.addEvent(event, deliveries);
      t.is(
        (await tx.eventFor(generation.id, 'generation.completed'))?.id,
        'evt_1',
        'the transaction sees its own event',
      );
    });
    t.is((await repository.getGeneration(account.id, generation.id))?.status, 'completed');
    t.like(await repository.webhooks.getEvent('evt_1'), { generation_id: generation.id, type: 'generation.completed' });
    t.deepEqual(
      (await repository.webhooks.pendingDeliveries()).map((d) => d.id),
      ['whd_evt_1'],
    );
  });

  test(title('an update in a transaction cannot move a generation to another account'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    const updated = await repository.transaction((tx) =>
      tx.updateGeneration(generation.id, { account_id: 'acct_other' } as never),
    );
    t.is(updated.account_id, account.id);
  });

  test(title('a task that fails gives its quota unit back'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: 1 });
    await repository.transaction((tx) => tx.updateGeneration(generation.id, { status: 'failed' }));
    t.is(await repository.usage(account.id, generation.quota_month), 0);
    await t.notThrowsAsync(repository.createGeneration(request(account.id), { monthlyQuota: 1 }));
  });

  test(title('a deleted generation is gone from every read and its quota unit stays spent'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    await repository.transaction((tx) => tx.updateGeneration(generation.id, { status: 'completed' }));
    await repository.deleteGeneration(generation.id);
    t.is(await repository.getGeneration(account.id, generation.id), undefined);
    t.is((await repository.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
    t.is(await repository.usage(account.id, generation.quota_month), 1);
    await t.throwsAsync(repository.deleteGeneration(generation.id), { instanceOf: NotFoundError });
  });

  test(
    title(
      "storageUsed is what storageBytesOf reckons for every track the account keeps: not failed, deleted or another account's ones",
    ),
    async (t) => {
      const { repository, account } = await setup(t);
      const other = await repository.createAccount({ plan: 'developer', email: 'b@example.com' });
      const make = async (accountId: string, overrides: Partial<NewGeneration>) =>
        (await repository.createGeneration(request(accountId, overrides), { monthlyQuota: null })).generation;
      const plain = await make(account.id, { duration: 30 });
      const rich = await make(account.id, {
        duration: 60,
        stems: true,
        encoding: { sample_rate: 48000, bit_depth: 24, bitrate: null },
      });
      const failed = await make(account.id, { duration: 90 });
      const deleted = await make(account.id, { duration: 120 });
      await make(other.id, { duration: 150 });
      const bytes = (...tracks: TrackSize[]) => tracks.reduce((sum, track) => sum + storageBytesOf(track), 0);
      t.is(await repository.storageUsed(account.id), bytes(plain, rich, failed, deleted));
      // A running total must follow every change: finished with two stems and its sections' end, failed, deleted.
      const finished = {
        files: { wav: 'a.wav', midi: 'a.mid', stems: { drums: 'd.wav', bass: 'b.wav' } },
        metadata: { sections: [{ kind: 'verse', start: 0, end: 61.5 }] },
      };
      await repository.transaction(async (tx) => {
        await tx.updateGeneration(rich.id, { status: 'completed', ...finished });
        await tx.updateGeneration(failed.id, { status: 'failed' });
        await tx.updateGeneration(deleted.id, { status: 'completed' });
      });
      await repository.deleteGeneration(deleted.id);
      const richNow = { ...rich, ...finished } as TrackSize;
      t.is(await repository.storageUsed(account.id), bytes(plain, richNow));
      // Odd lengths and options: a store that reckons in SQL must round as storageBytesOf does.
      const odd = await make(account.id, {
        duration: 41.29032258064516,
        stems: true,
        encoding: { sample_rate: 44100, bit_depth: 24, bitrate: null },
      });
      await repository.transaction((tx) =>
        tx.updateGeneration(odd.id, {
          status: 'completed',
          files: { wav: 'o.wav', midi: 'o.mid' },
          metadata: { sections: [{ kind: 'verse', start: 0, end: 'soon' as unknown as number }] },
        }),
      );
      const oddNow = { ...odd, files: { wav: 'o.wav', midi: 'o.mid' }, metadata: { sections: [{ end: 'soon' }] } };
      t.is(await repository.storageUsed(account.id), bytes(plain, richNow, oddNow as TrackSize));
      t.is(await repository.storageUsed(other.id), storageBytesOf({ duration: 150 }));
      t.is(await repository.storageUsed('acct_missing'), 0);
    },
  );

  test(title('lists are newest first, filtered by status; unfinished tasks are oldest first'), async (t) => {
    const { repository, account } = await setup(t);
    const at = (minute: number) => ({ monthlyQuota: null, now: new Date(Date.UTC(2026, 2, 15, 12, minute)) });
    const a = (await repository.createGeneration(request(account.id, { seed: 1 }), at(1))).generation;
    const b = (await repository.createGeneration(request(account.id, { seed: 2 }), at(2))).generation;
    const c = (await repository.createGeneration(request(account.id, { seed: 3 }), at(3))).generation;
    await repository.transaction((tx) => tx.updateGeneration(b.id, { status: 'completed' }));
    t.deepEqual(
      (await repository.listGenerations(account.id, { limit: 10, offset: 0 })).items.map((g) => g.id),
      [c.id, b.id, a.id],
    );
    t.deepEqual(
      (await repository.listGenerations(account.id, { status: 'processing', limit: 10, offset: 0 })).items.map(
        (g) => g.id,
      ),
      [c.id, a.id],
    );
    t.deepEqual(
      (await repository.unfinishedGenerations()).map((g) => g.id),
      [a.id, c.id],
    );
  });

  test(title('a watcher hears of a committed change and of the delete'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    const heard: (string | undefined)[] = [];
    const stop = repository.watchGeneration(generation.id, (g) => heard.push(g?.status));
    await repository.transaction((tx) => tx.updateGeneration(generation.id, { status: 'completed' }));
    await repository.deleteGeneration(generation.id);
    stop();
    t.deepEqual(heard, ['completed', undefined]);
  });

  test(title('endpoints are added, listed per account, changed and deleted'), async (t) => {
    const { repository, account } = await setup(t);
    await repository.webhooks.addEndpoint(endpoint(account.id));
    await repository.webhooks.addEndpoint(endpoint('acct_other', 'we_2'));
    t.deepEqual(
      (await repository.webhooks.listEndpoints(account.id)).map((e) => e.id),
      ['we_1'],
    );
    t.like(await repository.webhooks.updateEndpoint('we_1', { failing_since: '2026-03-15T12:00:00.000Z' }), {
      failing_since: '2026-03-15T12:00:00.000Z',
    });
    await repository.webhooks.deleteEndpoint('we_1');
    t.is(await repository.webhooks.getEndpoint('we_1'), undefined);
  });

  test(title('the first secret stored for an account is the one it keeps'), async (t) => {
    const { repository, account } = await setup(t);
    const secret = (value: string) => ({
      account_id: account.id,
      secret: value,
      previous: null,
      previous_expires_at: null,
      created_at: '2026-03-15T12:00:00.000Z',
    });
    const [first, second] = await Promise.all([
      repository.webhooks.addSecretIfAbsent(secret('whsec_a')),
      repository.webhooks.addSecretIfAbsent(secret('whsec_b')),
    ]);
    t.is(first.secret, second.secret);
    t.is((await repository.webhooks.getSecret(account.id))?.secret, first.secret);
  });

  test(title('a delivered delivery leaves the pending ones and shows in the log with its state'), async (t) => {
    const { repository, account } = await setup(t);
    const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
    await repository.transaction(async (tx) => {
      const { event, deliveries } = eventOf(account.id, generation.id);
      await tx.addEvent(event, deliveries);
    });
    await repository.webhooks.updateDelivery('whd_evt_1', { state: 'delivered', next_attempt_at: null });
    t.deepEqual(await repository.webhooks.pendingDeliveries(), []);
    const { items, total } = await repository.webhooks.listDeliveries(account.id, {
      limit: 10,
      offset: 0,
      state: 'delivered',
    });
    t.is(total, 1);
    t.is(items[0]?.id, 'whd_evt_1');
  });

  test(title('a setting reads back as put, and as undefined before'), async (t) => {
    const { repository } = await setup(t);
    t.is(await repository.settings.get('render-speed'), undefined);
    await repository.settings.put('render-speed', { per_audio_second: 0.05 });
    t.deepEqual(await repository.settings.get('render-speed'), { per_audio_second: 0.05 });
  });

  test(title('an email claimed for a sign-up cannot be claimed again until released'), async (t) => {
    const { repository } = await setup(t);
    const release = await repository.credentials.claimEmail('b@example.com');
    await t.throwsAsync(repository.credentials.claimEmail('B@example.com '), { instanceOf: EmailTakenError });
    release();
    await t.notThrowsAsync(repository.credentials.claimEmail('b@example.com'));
  });

  test(title('a session is found until it ends; a sign-in token works once'), async (t) => {
    const { repository, account } = await setup(t);
    const now = new Date('2026-03-15T12:00:00.000Z');
    const session = await repository.credentials.createSession(account.id, now, 60_000);
    t.is((await repository.credentials.findSession(session.id, now))?.account_id, account.id);
    await repository.credentials.endSession(session.id);
    t.is(await repository.credentials.findSession(session.id, now), undefined);
    const token = await repository.credentials.issueSignInToken(account.id, now, 60_000);
    t.is(await repository.credentials.redeemSignInToken(token, now), account.id);
    t.is(await repository.credentials.redeemSignInToken(token, now), undefined);
  });

  test(
    title('a pending delivery is leased to one sender at a time, until its update or until the lease runs out'),
    async (t) => {
      const { repository, account } = await setup(t);
      await repository.webhooks.addEndpoint(endpoint(account.id));
      const { generation } = await repository.createGeneration(request(account.id), { monthlyQuota: null });
      const { event, deliveries } = eventOf(account.id, generation.id);
      await repository.transaction((tx) => tx.addEvent(event, deliveries));
      const at = new Date('2026-03-15T12:00:00.000Z');
      const later = (ms: number) => new Date(at.getTime() + ms);
      t.is((await repository.webhooks.claimDelivery('whd_evt_1', 'node-a', later(60_000), at))?.id, 'whd_evt_1');
      t.is(
        await repository.webhooks.claimDelivery('whd_evt_1', 'node-b', later(60_000), later(1_000)),
        undefined,
        'node a holds it',
      );
      t.is(
        (await repository.webhooks.claimDelivery('whd_evt_1', 'node-b', later(120_000), later(60_001)))?.id,
        'whd_evt_1',
        "node a's lease ran out",
      );
      await repository.webhooks.updateDelivery('whd_evt_1', {
        round_attempts: 1,
        next_attempt_at: later(61_000).toISOString(),
      });
      t.is(
        (await repository.webhooks.claimDelivery('whd_evt_1', 'node-a', later(120_000), later(62_000)))?.round_attempts,
        1,
        "the update ended node b's lease",
      );
      await repository.webhooks.updateDelivery('whd_evt_1', { state: 'delivered', next_attempt_at: null });
      t.is(
        await repository.webhooks.claimDelivery('whd_evt_1', 'node-b', later(180_000), later(63_000)),
        undefined,
        'a settled delivery is not sent again',
      );
    },
  );

  test(
    title("an account's styles are added, listed by name, read and deleted, and no other account sees them"),
    async (t) => {
      const { repository, account } = await setup(t);
      const other = await repository.createAccount({ plan: 'enterprise' });
      await repository.styles.add(style(account.id, 'night-flute'));
      await repository.styles.add(style(account.id, 'dawn-flute'));
      await repository.styles.add(style(other.id, 'night-flute'));
      t.deepEqual(
        (await repository.styles.list(account.id)).map((s) => s.name),
        ['dawn-flute', 'night-flute'],
      );
      t.deepEqual(await repository.styles.get(account.id, 'night-flute'), style(account.id, 'night-flute'));
      await t.throwsAsync(repository.styles.add(style(account.id, 'night-flute')), { instanceOf: StyleNameTakenError });
      t.true(await repository.styles.delete(account.id, 'night-flute'));
      t.false(await repository.styles.delete(account.id, 'night-flute'));
      t.is(await repository.styles.get(account.id, 'night-flute'), undefined);
      t.deepEqual(await repository.styles.get(other.id, 'night-flute'), style(other.id, 'night-flute'));
      t.deepEqual(await repository.styles.list('acct_nobody'), []);
    },
  );

  test(title('a generation keeps the custom style it was made with'), async (t) => {
    const { repository, account } = await setup(t);
    const custom = makeCustomStyle('night-flute', 'lofi', { instruments: { lead: 'flute' }, key: 'F# minor' });
    const { generation } = await repository.createGeneration(
      request(account.id, { style: 'night-flute', custom_style: custom }),
      { monthlyQuota: 10 },
    );
    t.deepEqual(generation.custom_style, custom);
    t.deepEqual((await repository.getGeneration(account.id, generation.id))?.custom_style, custom);
    const plain = await repository.createGeneration(request(account.id), { monthlyQuota: 10 });
    t.false('custom_style' in plain.generation);
  });
}
