/**
 * Songs through the API: lyrics that cannot be sung are a 400 saying why before any task exists, and a sung
 * task completes with its lyrics and their timing (a real server process and render worker).
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorOf, startApp } from './helpers/app.ts';
import { runCli, startServerProcess, tempDataDir } from './helpers/process.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

const manyLines = (count: number) =>
  Array.from({ length: count }, (_, i) => `Here is a simple line number ${i + 1}`).join('\n');

test('lyrics with more lines than a 30 s track holds are a 400 lyrics_too_long that says how many fit', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a pop song', duration: 30, lyrics: manyLines(40) },
  });
  t.is(res.status, 400);
  const error = await errorOf(res);
  t.like(error, { type: 'invalid_request_error', code: 'lyrics_too_long', param: 'lyrics' });
  const fit = Number(/room for (\d+)/.exec(error.message)?.[1]);
  t.true(fit > 0 && fit < 40, error.message);
  t.regex(error.message, /Shorten them to \d+ lines or ask for a longer duration/);
  t.is(app.jobs.queued.length, 0, 'no task was created');
});

test('lyrics with nothing to sing are a 400 invalid_lyrics', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a pop song', duration: 60, lyrics: '[Chorus]\n... !!! ...' },
  });
  t.is(res.status, 400);
  t.like(await errorOf(res), { code: 'invalid_lyrics', param: 'lyrics' });
});

test('lyrics that fit are accepted and shown on the pending task', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const lyrics = '[Verse]\nWalking down the river road\nSinging as the waters flow';
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'a folk song', duration: 60, lyrics } });
  t.is(res.status, 202);
  t.is((await res.json()).lyrics, lyrics);
});

test('a sung task completes with its lyrics, metadata.vocals and per-line timing', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
  const lyrics =
    '[Verse]\nMorning light upon the window\nCoffee steaming in my hand\n\n[Chorus]\nSing it out and sing it loud\nDancing in the summer crowd';
  const created = await fetch(`${server.url}/v1/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a happy acoustic folk song', duration: 30, seed: 9, lyrics }),
  });
  t.is(created.status, 202, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const done = await awaitCompleted(server.url, { authorization: `Bearer ${key}` }, id, 120_000);
  t.true(done.metadata.vocals);
  t.is(done.metadata.lyrics, undefined, 'the sung text is shown once, as the top-level lyrics');
  t.regex(
    done.lyrics,
    /\[Verse\]\nMorning light upon the window\nCoffee steaming in my hand\n\n\[Chorus\]\nSing it out and sing it loud/,
  );
  const timing = done.metadata.lyrics_timing as {
    section: string;
    text: string;
    start: number;
    end: number;
    words: { text: string; start: number; end: number }[];
  }[];
  t.deepEqual(
    timing.map((line) => line.text),
    [
      'Morning light upon the window',
      'Coffee steaming in my hand',
      'Sing it out and sing it loud',
      'Dancing in the summer crowd',
    ],
  );
  t.deepEqual(
    timing.map((line) => line.section),
    ['verse', 'verse', 'chorus', 'chorus'],
  );
  for (const line of timing) {
    t.true(line.start > 0 && line.end > line.start && line.end <= 30);
    t.is(line.words.length, line.text.split(' ').length);
  }
});

test('tunesmith render --lyrics sings the file and prints the lyrics; too many lines exit 2 with the count', async (t) => {
  const dir = await tempDataDir(t);
  const file = join(dir, 'words.txt');
  await writeFile(file, '[Verse]\nWalking down the river road\nSinging as the waters flow\n');
  const out = join(dir, 'song.wav');
  const ok = await runCli(
    ['render', 'a folk song', '--duration', '20', '--seed', '3', '--lyrics', file, '--out', out],
    {},
  );
  t.is(ok.code, 0, ok.stderr);
  t.regex(
    ok.stdout,
    /Lyrics \(sung\):\n {2}\[Verse\]\n {2}Walking down the river road\n {2}Singing as the waters flow/,
  );

  await writeFile(file, manyLines(40));
  const refused = await runCli(['render', 'a folk song', '--duration', '20', '--lyrics', file, '--out', out], {});
  t.is(refused.code, 2);
  t.regex(refused.stderr, /These lyrics need 40 sung lines, but a 20-second track of this style has room for \d+/);
});
