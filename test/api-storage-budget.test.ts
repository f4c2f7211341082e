/**
 * What one account's tracks may take in storage (issue 29, point 8): TUNESMITH_DISK_BUDGET_GB, reckoned from each
 * track's length and audio options, refused with a 402 before anything is made, and nothing kept is touched.
 */
import test from 'ava';
import { loadConfig } from '../src/config.ts';
import { storageBytesOf } from '../src/domain/generations/storage-budget.ts';
import { errorOf, startApp } from './helpers/app.ts';

/** A 60 s track at the defaults: its 16-bit 44.1 kHz WAV, and as much again for the formats made on first fetch. */
const MINUTE = 2 * 60 * 44_100 * 4;

test('a 60 s track counts its WAV twice; 48 kHz 24-bit and stems count what they store', (t) => {
  t.is(storageBytesOf({ duration: 60 }), MINUTE);
  const rich = { duration: 60, encoding: { sample_rate: 48000, bit_depth: 24, bitrate: null }, stems: true } as const;
  // Until it is finished a track with stems reserves the most roles (8); then it counts those it has.
  t.is(storageBytesOf(rich), 2 * 60 * 48_000 * 6 + 8 * 60 * 44_100 * 4);
  const finished = { ...rich, files: { wav: 'a', midi: 'b', stems: { drums: 'c', bass: 'd' } } };
  t.is(storageBytesOf(finished), 2 * 60 * 48_000 * 6 + 2 * 60 * 44_100 * 4);
  // A loop or a plan plays what its sections say, not the duration asked for.
  t.is(storageBytesOf({ duration: 60, metadata: { sections: [{ end: 30 }, { end: 90 }] } }), (MINUTE * 3) / 2);
});

test('a task past the storage budget is a 402 storage_budget_exceeded that says what to do, and nothing stored is lost', async (t) => {
  const app = await startApp(t, { diskBudgetBytes: Math.round(2.5 * MINUTE) });
  const { account, key } = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  const generate = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.call(key, '/v1/generate', { json, headers });
  const first = (await (await generate({ prompt: 'lofi', duration: 60 })).json()) as { id: string };
  await app.jobs.complete(first.id);
  t.is((await generate({ prompt: 'lofi', duration: 60 })).status, 202, 'a waiting task counts too');
  const refused = await generate({ prompt: 'lofi', duration: 60 }, { 'Idempotency-Key': 'third' });
  t.is(refused.status, 402);
  const error = await errorOf(refused);
  t.like(error, { type: 'quota_error', code: 'storage_budget_exceeded' });
  t.regex(
    error.message,
    /take 42 MB of its 53 MB storage budget and this track needs up to 21 MB more\. Delete tracks/,
  );
  t.like(error, { budget_bytes: Math.round(2.5 * MINUTE), used_bytes: 2 * MINUTE, needed_bytes: MINUTE });
  // Nothing was made, no quota spent, and what the account keeps is still there and downloadable.
  const list = await app.store.listGenerations(account.id, { limit: 10, offset: 0 });
  t.is(list.total, 2);
  const kept = await app.call(key, `/v1/generation/${first.id}`);
  t.is(kept.status, 200);
  const { download_urls: urls } = (await kept.json()) as { download_urls: { wav: string } };
  t.is((await fetch(urls.wav)).status, 200);
  // A shorter track still fits; deleting a track makes room for the refused one.
  t.is((await generate({ prompt: 'lofi', duration: 30 })).status, 202);
  t.is((await app.call(key, `/v1/generation/${first.id}`, { method: 'DELETE' })).status, 204);
  t.is((await generate({ prompt: 'lofi', duration: 60 }, { 'Idempotency-Key': 'third' })).status, 202);
  // Its retry, now over the budget again, gets the same answer instead of a 402.
  t.is((await generate({ prompt: 'lofi', duration: 60 }, { 'Idempotency-Key': 'third' })).status, 202);
});

test('stems and 48 kHz 24-bit count against the budget, a batch counts every variation', async (t) => {
  const app = await startApp(t, { diskBudgetBytes: 3 * MINUTE });
  const { key } = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  const generate = (json: Record<string, unknown>) => app.call(key, '/v1/generate', { json });
  const rich = await generate({ prompt: 'lofi', duration: 60, stems: true, sample_rate: 48000, bit_depth: 24 });
  t.is(rich.status, 402);
  t.is((await generate({ prompt: 'lofi', duration: 60, variations: 4 })).status, 402);
  t.is((await generate({ prompt: 'lofi', duration: 60, variations: 3 })).status, 202);
});

test('TUNESMITH_DISK_BUDGET_GB defaults to 50 GB per account; 0 turns it off', (t) => {
  t.is(loadConfig({}).diskBudgetBytes, 50e9);
  t.is(loadConfig({ TUNESMITH_DISK_BUDGET_GB: '2' }).diskBudgetBytes, 2e9);
  t.is(loadConfig({ TUNESMITH_DISK_BUDGET_GB: '0' }).diskBudgetBytes, undefined);
  t.throws(() => loadConfig({ TUNESMITH_DISK_BUDGET_GB: '-1' }), { message: /TUNESMITH_DISK_BUDGET_GB/ });
});
