/**
 * The plans' listed features are real (issue 26 part 1): quality (standard: 44.1 kHz, 16-bit, MP3 up to 192 kbps, no
 * stems; high: 48 kHz, 24-bit, 320 kbps, stems), API access (basic: create, get, list, cancel, delete; full: also
 * extend, remix, variations, composition plans, musical fields), and priority in the queue. Asking for more than the
 * plan includes is a 403 naming the plans that include it, before any quota is spent; never a silent downgrade.
 */
import test from 'ava';
import { FairQueue } from '../src/jobs/fair-queue.ts';
import { PLANS } from '../src/domain/plans.ts';
import { errorOf, startApp } from './helpers/app.ts';

const base = { prompt: 'a calm piano piece', duration: 30, instrumental: true };

const beyondStarter: [string, Record<string, unknown>, RegExp][] = [
  [
    '48 kHz audio',
    { sample_rate: 48000 },
    /48 kHz tracks are not available on the Starter plan\. Upgrade to Developer or Enterprise, or leave out "sample_rate"\./,
  ],
  ['24-bit audio', { bit_depth: 24 }, /24-bit tracks .*Starter.*Developer or Enterprise.*"bit_depth"/],
  ['MP3 at 320 kbps', { bitrate: 320 }, /MP3s at 320 kbps .*Starter.*Developer or Enterprise.*"bitrate"/],
  ['stems', { stems: true }, /Stems .*Starter.*Developer or Enterprise.*"stems"/],
  ['variations', { variations: 2 }, /Variations .*Starter.*Developer or Enterprise.*"variations"/],
  [
    'a composition plan',
    { sections: [{ kind: 'verse' }, { kind: 'chorus' }] },
    /Composition plans .*Starter.*"sections"/,
  ],
  ['a musical field', { bpm: 100 }, /Musical fields .*Starter.*"bpm"/],
];

for (const [what, fields, message] of beyondStarter) {
  test(`a Starter request for ${what} is a 403 naming the plans that include it, and spends no quota`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account('starter');
    const res = await app.call(key, '/v1/generate', { json: { ...base, ...fields } });
    t.is(res.status, 403);
    const error = await errorOf(res);
    t.is(error.code, 'plan_forbidden');
    t.regex(error.message, message);
    const account = await (await app.call(key, '/v1/account')).json();
    t.is(account.quota.used, 0);
  });

  test(`a Developer request for ${what} is accepted`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account('developer');
    const res = await app.call(key, '/v1/generate', { json: { ...base, ...fields } });
    t.is(res.status, 202, await res.clone().text());
  });
}

test('Starter keeps what standard quality and basic access include: 44.1 kHz, 16-bit, MP3 at 192 kbps', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const res = await app.call(key, '/v1/generate', {
    json: { ...base, sample_rate: 44100, bit_depth: 16, bitrate: 192, stems: false },
  });
  t.is(res.status, 202, await res.clone().text());
});

test('extending and remixing are refused on Starter with the plans that include them', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  const { id } = await (await app.call(key, '/v1/generate', { json: base })).json();
  await app.jobs.complete(id);
  for (const [path, json, feature] of [
    ['extend', { seconds: 16 }, 'Extending tracks'],
    ['remix', { section: 1, energy: 1 }, 'Remixing sections of tracks'],
  ] as const) {
    const res = await app.call(key, `/v1/generation/${id}/${path}`, { json });
    t.is(res.status, 403, path);
    t.is(
      (await errorOf(res)).message,
      `${feature} are not available on the Starter plan. Upgrade to Developer or Enterprise.`,
    );
  }
});

test("GET /v1/account shows the plan's features", async (t) => {
  const app = await startApp(t);
  for (const plan of ['starter', 'developer', 'enterprise'] as const) {
    const { key } = await app.account(plan);
    const account = await (await app.call(key, '/v1/account')).json();
    t.deepEqual(account.features, {
      quality: PLANS[plan].quality,
      api_access: PLANS[plan].api_access,
      priority: PLANS[plan].priority,
      webhooks: PLANS[plan].webhooks,
      custom_styles: PLANS[plan].custom_styles,
      dedicated_workers: PLANS[plan].dedicated_workers,
    });
  }
  t.deepEqual([PLANS.starter.quality, PLANS.developer.quality, PLANS.enterprise.quality], ['standard', 'high', 'high']);
  t.deepEqual(
    [PLANS.starter.custom_styles, PLANS.developer.custom_styles, PLANS.enterprise.custom_styles],
    [false, false, true],
  );
  t.deepEqual(
    [PLANS.starter.dedicated_workers, PLANS.developer.dedicated_workers, PLANS.enterprise.dedicated_workers],
    [false, false, true],
  );
});

test('the queue starts every task of a better rank first, and is fair between accounts of one rank', (t) => {
  const ranks: Record<string, number> = { ent: 1, dev1: 2, dev2: 2, start: 3 };
  const queue = new FairQueue<{ id: string; account_id: string }>((account) => ranks[account] ?? 0);
  for (const [id, account_id] of [
    ['s1', 'start'],
    ['s2', 'start'],
    ['a1', 'dev1'],
    ['a2', 'dev1'],
    ['a3', 'dev1'],
    ['b1', 'dev2'],
    ['e1', 'ent'],
  ])
    queue.push({ id: id ?? '', account_id: account_id ?? '' });
  t.deepEqual(
    queue.order().map((task) => task.id),
    ['e1', 'a1', 'b1', 'a2', 'a3', 's1', 's2'],
  );
  t.is(queue.position('s1'), 5);
  const started: string[] = [];
  for (let task = queue.shift(); task; task = queue.shift()) started.push(task.id);
  t.deepEqual(started, ['e1', 'a1', 'b1', 'a2', 'a3', 's1', 's2']);
});
