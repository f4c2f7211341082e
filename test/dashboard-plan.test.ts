/** The playground's plan editor and variations: rows sent as the API's `sections`, refused with its sentences. */
import test from 'ava';
import { startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';

test('the playground sends its plan rows as sections and shows them again, with a timeline', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'pia@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'an upbeat pop song',
    duration: '30',
    bpm: '120',
    section_kind_0: 'intro',
    section_bars_0: '4',
    section_energy_0: '0.3',
    section_kind_1: 'chorus',
    section_bars_1: '12',
    section_instruments_1: 'drums, piano',
  });
  t.is(res.status, 303, res.text);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  const account = (await app.store.listAccounts()).find((a) => a.email === 'pia@example.com')!;
  const stored = await app.store.getGeneration(account.id, id);
  t.deepEqual(stored?.plan, [
    { kind: 'intro', bars: 4, energy: 0.3 },
    { kind: 'chorus', bars: 12, instruments: ['drums', 'piano'] },
  ]);
  t.is(stored?.duration, 32);
  // The track shown leaves the rows empty (a second prompt is not held to this plan) and offers to load its plan.
  const shown = await browser.get(`/playground?id=${id}`);
  t.regex(
    shown.text,
    /name="section_kind_1"[^>]*><option value="">—<\/option>(?:(?!<\/select>)(?!selected).)*<\/select>/s,
  );
  t.notRegex(shown.text, /<details class="plan-editor" id="plan-editor" open>/);
  t.regex(shown.text, new RegExp(`href="/playground\\?id=${id}&amp;plan=edit#plan-editor">Load this track's plan`));
  const page = await browser.get(`/playground?id=${id}&plan=edit`);
  t.regex(page.text, /<details class="plan-editor" id="plan-editor" open>/);
  t.regex(page.text, /name="section_kind_1"[^>]*>(?:(?!<\/select>).)*<option value="chorus" selected>/s);
  t.regex(page.text, /name="section_bars_1"[^>]*value="12"/);
  // At 120 bpm in 4/4 a bar is 2 s: the timeline is in seconds.
  t.regex(page.text, /aria-label="Timeline: intro 8 s, chorus 24 s, 32 s in all"/);
});

test("the playground shows a plan the API refuses above the rows, in the API's words", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'quin@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'a song',
    bpm: '120',
    section_kind_0: 'verse',
    section_bars_0: '4',
  });
  t.is(res.status, 400);
  t.regex(res.text, /id="sections-error"[^>]*>The plan lasts 8 s at this tempo; a track must be 30–180 s/);
});

test("the playground's variations make a batch", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'rae@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a song', duration: '30', variations: '3' });
  t.is(res.status, 303, res.text);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'rae@example.com')!;
  const { items } = await app.store.listGenerations(account.id, { limit: 10, offset: 0 });
  t.is(items.length, 3);
  t.is(new Set(items.map((g) => g.batch?.id)).size, 1);
});

test("a row's seconds and lyrics go to the API as the section's, and come back when the plan is edited again", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'sol@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'a warm pop song',
    bpm: '120',
    section_kind_0: 'verse',
    section_seconds_0: '20',
    section_lyrics_0: 'City lights are fading slow\r\nI walk the road alone',
    section_kind_1: 'chorus',
    section_bars_1: '10',
  });
  t.is(res.status, 303, res.text);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  const account = (await app.store.listAccounts()).find((a) => a.email === 'sol@example.com')!;
  const stored = await app.store.getGeneration(account.id, id);
  t.deepEqual(stored?.plan, [
    { kind: 'verse', seconds: 20, lyrics: 'City lights are fading slow\nI walk the road alone' },
    { kind: 'chorus', bars: 10 },
  ]);
  t.is(stored?.duration, 40);
  const page = await browser.get(`/playground?id=${id}&plan=edit`);
  t.regex(page.text, /name="section_seconds_0"[^>]*value="20"/);
  t.regex(page.text, /name="section_lyrics_0"[^>]*>City lights are fading slow\nI walk the road alone<\/textarea>/);
  t.regex(page.text, /aria-label="Timeline: verse 20 s, chorus 20 s, 40 s in all"/);
});

test('"More rows" shows the form again with five more plan rows, keeping what was typed, and generates nothing', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'tam@example.com');
  const first = await browser.get('/playground');
  t.regex(first.text, /name="section_kind_9"/);
  t.notRegex(first.text, /name="section_kind_10"/);
  const res = await browser.post('/playground', {
    prompt: 'a song',
    plan_rows: '10',
    section_kind_0: 'intro',
    section_bars_0: '4',
    more_rows: '1',
  });
  t.is(res.status, 200);
  t.regex(res.text, /name="section_kind_14"/);
  t.notRegex(res.text, /name="section_kind_15"/);
  t.regex(res.text, /name="section_bars_0"[^>]*value="4"/);
  t.regex(res.text, /name="plan_rows" value="15"/);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'tam@example.com')!;
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
});

test('Clear shows the form again with every plan row empty and the editor open, keeping the rest, and generates nothing', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'uma@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'a song',
    duration: '60',
    plan_rows: '10',
    section_kind_0: 'verse',
    section_bars_0: '4',
    section_lyrics_0: 'la la',
    variations: '2',
    clear_plan: '1',
  });
  t.is(res.status, 200);
  t.regex(res.text, /<details class="plan-editor" id="plan-editor" open>/);
  t.notRegex(res.text, /<option value="verse" selected>/);
  t.regex(res.text, /name="section_bars_0"[^>]*value=""/);
  t.regex(res.text, /name="section_lyrics_0"[^>]*><\/textarea>/);
  t.regex(res.text, />a song<\/textarea>/);
  t.regex(res.text, /name="duration"[^>]*value="60"/);
  t.regex(res.text, /<option value="2" selected>2<\/option>/);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'uma@example.com')!;
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
});
