/**
 * Lyrics in a script the singer cannot read (issue 29, point 1) at the entry points other than the API: the
 * playground and the remix form answer a 400 page naming the word (they were a 500 page), and `tunesmith render
 * --lyrics FILE` a one-line refusal (it was a stack trace).
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';
import { runCli, tempDataDir } from './helpers/process.ts';

const LYRICS = 'привет мир\nsecond line';
const REFUSAL = /Line 1: (&quot;|")привет(&quot;|") is written in Cyrillic script/;

test('the playground refuses lyrics in a script the singer cannot read with a 400 page naming the word', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'script@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a pop song', style: 'pop', lyrics: LYRICS });
  t.is(res.status, 400, res.text.slice(0, 300));
  t.regex(res.text, REFUSAL);
});

test('the remix form refuses such lyrics with a 400 page naming the word', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'remix-script@example.com');
  const account = (await app.store.listAccounts()).find((a) => a.email === 'remix-script@example.com')!;
  const { key } = await app.store.createKey(account.id, 'test');
  const plan = [
    { kind: 'verse', bars: 8, energy: 0.6, instruments: ['drums', 'bass', 'chords'], start: 0, end: 16 },
    { kind: 'chorus', bars: 8, energy: 0.9, instruments: ['drums', 'bass', 'chords'], start: 16, end: 32 },
  ];
  const made = await app.call(key, '/v1/generate', {
    json: { prompt: 'a pop song about the city', duration: 32, seed: 7, instrumental: false },
  });
  const { id } = (await made.json()) as { id: string };
  await app.jobs.complete(id, 'City', { bpm: 120, key: 'C major', meter: '4/4', plan });
  await browser.get(`/generations/${id}`);
  const res = await browser.post(`/generations/${id}/remix`, { section: '1', lyrics: LYRICS });
  t.is(res.status, 400, res.text.slice(0, 300));
  t.regex(res.text, REFUSAL);
});

test('render --lyrics with such a word is a one-line refusal, not a stack trace', async (t) => {
  const dir = await tempDataDir(t);
  const file = join(dir, 'words.txt');
  await writeFile(file, LYRICS);
  const result = await runCli(['render', 'a pop song', '--lyrics', file, '--out', join(dir, 'x.wav')], {});
  t.not(result.code, 0);
  t.regex(result.stderr, /Line 1: "привет" is written in Cyrillic script/);
  t.notRegex(result.stderr, /\n\s+at /);
});
