/** A track that would be silent is a 400 saying why, before any quota is spent (issue 29, point 7), wherever it is asked. */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkRequest, type GenerationRequest } from '../engine/index.ts';
import { errorOf, startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';
import { runCli, tempDataDir } from './helpers/process.ts';

const EVERY_ROLE = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture', 'vocals'];
const base: GenerationRequest = {
  prompt: 'a chill lofi beat',
  duration: 60,
  style: 'lofi',
  instrumental: true,
  seed: 9,
};

test('excluding every part is a SilentTrackError naming what was left out', (t) => {
  const error = t.throws(() => checkRequest({ ...base, music: { exclude: EVERY_ROLE } }));
  t.is(error?.name, 'SilentTrackError');
  t.regex(error!.message, /^Nothing would play in this track: every part of it is left out \(left out: .*drums.*\)/);
});

test('a plan whose sections name only parts the style lacks is a SilentTrackError naming the parts it has', (t) => {
  const plan = [
    { kind: 'verse' as const, bars: 16, instruments: ['arp'] },
    { kind: 'chorus' as const, bars: 16, instruments: ['arp'] },
  ];
  const error = t.throws(() => checkRequest({ ...base, plan }));
  t.is(error?.name, 'SilentTrackError');
  t.regex(error!.message, /sections name only parts it does not have \(it has drums, bass, chords, lead, texture\)/);
  // One section that plays is enough.
  t.notThrows(() => checkRequest({ ...base, plan: [...plan, { kind: 'outro', bars: 4 }] }));
});

test('POST /v1/generate of a silent track is a 400 silent_track and spends no quota', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const excluded = await app.call(key, '/v1/generate', {
    json: { prompt: 'a chill lofi beat', style: 'lofi', instrumental: true, exclude: EVERY_ROLE },
  });
  t.is(excluded.status, 400);
  t.like(await errorOf(excluded), { code: 'silent_track', param: 'exclude' });
  const planned = await app.call(key, '/v1/generate', {
    json: {
      prompt: 'a chill lofi beat',
      style: 'lofi',
      instrumental: true,
      sections: [
        { kind: 'verse', bars: 16, instruments: ['arp'] },
        { kind: 'chorus', bars: 16, instruments: ['arp'] },
      ],
    },
  });
  t.is(planned.status, 400);
  t.like(await errorOf(planned), { code: 'silent_track', param: 'sections' });
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
  t.is(await app.store.usage(account.id, new Date().toISOString().slice(0, 7)), 0);
});

test('the playground shows why a silent track is refused, as a 400 page', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  // A plan with composition plans (Starter's playground leaves the plan rows out).
  await signUpOnPlan(browser, app.store, 'silent@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'a chill lofi beat',
    style: 'lofi',
    instrumental: 'on',
    section_kind_0: 'verse',
    section_bars_0: '16',
    section_instruments_0: 'arp',
  });
  t.is(res.status, 400, res.text.slice(0, 300));
  t.regex(res.text, /id="sections-error"[^>]*>Nothing would play in this track/);
});

test('render of a silent track is a one-line refusal, not a silent file', async (t) => {
  const dir = await tempDataDir(t);
  const plan = join(dir, 'plan.json');
  await writeFile(plan, JSON.stringify([{ kind: 'verse', bars: 16, instruments: ['arp'] }]));
  const result = await runCli(
    ['render', 'a chill lofi beat', '--style', 'lofi', '--instrumental', '--plan', plan, '--out', join(dir, 'x.wav')],
    {},
  );
  t.not(result.code, 0);
  t.regex(result.stderr, /Nothing would play in this track/);
  t.notRegex(result.stderr, /\n\s+at /);
});
