/**
 * "Extend" and "Redo a section" on a track's page: the forms post to the dashboard, which calls the API's derive
 * path, then shows the new track with where it came from; a refusal is the API's sentence beside the form.
 */
import test from 'ava';
import { startApp, type TestApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';

const plan = [
  { kind: 'intro', bars: 4, energy: 0.3, instruments: ['pad'], start: 0, end: 8 },
  { kind: 'chorus', bars: 8, energy: 0.9, instruments: ['drums', 'bass', 'chords'], start: 8, end: 24 },
  { kind: 'outro', bars: 4, energy: 0.3, instruments: ['pad'], start: 24, end: 32 },
];

async function signedInWithTrack(
  app: TestApp,
  email: string,
): Promise<{ browser: DashboardClient; id: string; accountId: string }> {
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, email);
  const account = (await app.store.listAccounts()).find((a) => a.email === email)!;
  const { key } = await app.store.createKey(account.id, 'test');
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a chill lofi beat', duration: 32, seed: 7, instrumental: true },
  });
  const { id } = (await res.json()) as { id: string };
  await app.jobs.complete(id, 'Lofi', { bpm: 120, key: 'Eb major', meter: '4/4', plan });
  return { browser, id, accountId: account.id };
}

test("a completed track's page offers Extend and Redo a section, and Extend makes the new track and shows where it came from", async (t) => {
  const app = await startApp(t);
  const { browser, id, accountId } = await signedInWithTrack(app, 'ext@example.com');
  const page = await browser.get(`/generations/${id}`);
  t.regex(page.text, /<form method="post" action="\/generations\/[^"]+\/extend"/);
  t.regex(page.text, /<option value="1">2\. chorus \(8 s–24 s\)<\/option>/);
  t.regex(page.text, /This track is 32 s/);
  const res = await browser.post(`/generations/${id}/extend`, { seconds: '16' });
  t.is(res.status, 303, res.text);
  const made = /\/generations\/(gen_[^/?]+)$/.exec(res.location!)![1]!;
  t.deepEqual((await app.store.getGeneration(accountId, made))?.source, { id, operation: 'extend' });
  const madePage = await browser.get(`/generations/${made}`);
  t.regex(madePage.text, new RegExp(`Extended from <a href="/generations/${id}">`));
});

test("Redo a section sends the chosen section and what changes; a refusal shows the API's sentence beside the form", async (t) => {
  const app = await startApp(t);
  const { browser, id, accountId } = await signedInWithTrack(app, 'remix@example.com');
  await browser.get(`/generations/${id}`);
  const res = await browser.post(`/generations/${id}/remix`, {
    section: '1',
    energy: '1',
    instruments: 'drums, piano',
    seed: '',
  });
  t.is(res.status, 303, res.text);
  const made = /\/generations\/(gen_[^/?]+)$/.exec(res.location!)![1]!;
  const stored = await app.store.getGeneration(accountId, made);
  t.deepEqual(stored?.source, { id, operation: 'remix', section: 1 });
  t.like(stored?.plan?.[1], { energy: 1, instruments: ['drums', 'piano'] });
  t.regex((await browser.get(`/generations/${made}`)).text, /Section 2 redone from/);

  const refused = await browser.post(`/generations/${id}/remix`, {
    section: '1',
    energy: '2',
    instruments: '',
    seed: '',
  });
  t.is(refused.status, 400);
  t.regex(refused.text, /id="remix-error">energy must be between 0 and 1/);
});

test("a remix refused for its section counts sections from 1, as the form's list does", async (t) => {
  const app = await startApp(t);
  const { browser, id } = await signedInWithTrack(app, 'count@example.com');
  await browser.get(`/generations/${id}`);
  const res = await browser.post(`/generations/${id}/remix`, { section: '40', energy: '1' });
  t.is(res.status, 400);
  t.regex(res.text, /id="remix-error"[^>]*>Choose a section from the list: 1 to 3\./);
  t.notRegex(res.text, /between 0 and/);
});
