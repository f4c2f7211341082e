/** The playground's plan editor and variations: rows sent as the API's `sections`, refused with its sentences. */
import test from 'ava';
import { startApp } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';

test('the playground sends its plan rows as sections and shows them again, with a timeline', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('pia@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'an upbeat pop song', duration: '30', bpm: '120',
    section_kind_0: 'intro', section_bars_0: '4', section_energy_0: '0.3',
    section_kind_1: 'chorus', section_bars_1: '12', section_instruments_1: 'drums, piano',
  });
  t.is(res.status, 303, res.text);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  const account = (await app.store.listAccounts()).find((a) => a.email === 'pia@example.com')!;
  const stored = await app.store.getGeneration(account.id, id);
  t.deepEqual(stored?.plan, [{ kind: 'intro', bars: 4, energy: 0.3 }, { kind: 'chorus', bars: 12, instruments: ['drums', 'piano'] }]);
  t.is(stored?.duration, 32);
  const page = await browser.get(`/playground?id=${id}`);
  t.regex(page.text, /name="section_kind_1"[^>]*>(?:(?!<\/select>).)*<option value="chorus" selected>/s);
  t.regex(page.text, /name="section_bars_1"[^>]*value="12"/);
  t.regex(page.text, /aria-label="Timeline: intro 4 bars, chorus 12 bars"/);
});

test('the playground shows a plan the API refuses above the rows, in the API\'s words', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('quin@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a song', bpm: '120', section_kind_0: 'verse', section_bars_0: '4' });
  t.is(res.status, 400);
  t.regex(res.text, /id="sections-error"[^>]*>The plan lasts 8 s at this tempo; a track must be 30–180 s/);
});

test('the playground\'s variations make a batch', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('rae@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a song', duration: '30', variations: '3' });
  t.is(res.status, 303, res.text);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'rae@example.com')!;
  const { items } = await app.store.listGenerations(account.id, { limit: 10, offset: 0 });
  t.is(items.length, 3);
  t.is(new Set(items.map((g) => g.batch?.id)).size, 1);
});
