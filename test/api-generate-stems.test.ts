/**
 * POST /v1/generate with `stems` and `loop`: booleans, kept on the task when true, refused by name otherwise,
 * and rendered end to end by a real server process.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { join } from 'node:path';
import { readWavHeader } from './helpers/analysis.ts';
import { errorOf, startApp } from './helpers/app.ts';
import { startServerProcess, tempDataDir } from './helpers/process.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

test('stems and loop set to true are kept on the task', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a lofi loop', duration: 30, stems: true, loop: true },
  });
  t.is(res.status, 202);
  t.like(app.jobs.queued[0], { stems: true, loop: true });
});

test("a completed loop's duration is its real length in whole bars, not the seconds asked", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'a lofi loop', duration: 30, loop: true } });
  const { id } = (await res.json()) as { id: string };
  await app.jobs.complete(id, 'Loop', {
    bpm: 55,
    meter: '4/4',
    loop: { bars: 7, seconds: 30.545, requested_seconds: 30 },
  });
  const done = (await (await app.call(key, `/v1/generation/${id}`)).json()) as { duration: number };
  t.is(done.duration, 30.545);
});

test("a loop's duration is its whole bars' length from creation, as the engine will play it", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a lofi loop at 55 bpm', duration: 30, loop: true, seed: 1 },
  });
  const created = (await res.json()) as { id: string; duration: number };
  // 55 bpm in 4/4: a bar is 240/55 s, and 7 bars (30.545 s) are nearest to 30.
  t.is(created.duration, 30.545);
  t.is(((await (await app.call(key, `/v1/generation/${created.id}`)).json()) as { duration: number }).duration, 30.545);
});

test('false or absent leaves the task as an ordinary one', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  await app.call(key, '/v1/generate', { json: { prompt: 'a lofi track', stems: false } });
  t.false('stems' in app.jobs.queued[0]! || 'loop' in app.jobs.queued[0]!);
});

for (const field of ['stems', 'loop']) {
  test(`${field} that is not a boolean is a 400 naming it`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account();
    const res = await app.call(key, '/v1/generate', { json: { prompt: 'a lofi track', [field]: 'yes' } });
    t.is(res.status, 400);
    t.like(await errorOf(res), { param: field });
  });
}

test('a loop with stems completes through a real server: whole bars reported, every stem beside the WAV and as long', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const body = JSON.stringify({
    prompt: 'a calm lofi beat',
    duration: 30,
    seed: 4,
    instrumental: true,
    stems: true,
    loop: true,
  });
  const created = await fetch(`${server.url}/v1/generate`, { method: 'POST', headers, body });
  t.is(created.status, 202, await created.clone().text());
  const { id, duration: announced } = (await created.json()) as { id: string; duration: number };
  const done = await awaitCompleted(server.url, headers, id, 120_000);
  t.true(Number.isInteger(done.metadata.loop.bars));
  // Known from creation: the 202 already gave the length the render played.
  t.is(announced, done.metadata.loop.seconds);
  t.is(done.metadata.loop.requested_seconds, 30);
  // The generation's duration is the loop's real length, not the 30 s asked.
  t.is(done.duration, done.metadata.loop.seconds);
  t.not(done.duration, 30);
  const files = (await readdir(join(dataDir, 'audio'), { recursive: true })).filter((name) => name.includes(id));
  const mix = files.find((name) => name.endsWith(`${id}.wav`))!;
  const stems = files.filter((name) => name.includes('.stem-'));
  t.true(stems.length >= 2, files.join(', '));
  const frames = (await readWavHeader(join(dataDir, 'audio', mix))).frames;
  const barSeconds = (Number(String(done.metadata.meter).split('/')[0]) * 60) / done.metadata.bpm;
  t.is(frames, Math.round(done.metadata.loop.bars * barSeconds * 44100));
  for (const stem of stems) t.is((await readWavHeader(join(dataDir, 'audio', stem))).frames, frames, stem);

  // Offered as one signed link per stem and as one zip of them all, each byte for byte the stored stem.
  const stemUrls = done.stem_urls as Record<string, string>;
  t.deepEqual(Object.keys(stemUrls).sort(), stems.map((name) => /\.stem-([a-z]+)\.wav$/.exec(name)![1]!).sort());
  const downloaded: Record<string, Uint8Array> = {};
  for (const [role, url] of Object.entries(stemUrls)) {
    const res = await fetch(url);
    t.is(res.status, 200, role);
    t.is(res.headers.get('content-type'), 'audio/wav', role);
    downloaded[role] = new Uint8Array(await res.arrayBuffer());
    const stored = await readFile(join(dataDir, 'audio', stems.find((name) => name.endsWith(`.stem-${role}.wav`))!));
    t.true(Buffer.from(downloaded[role]!).equals(stored), role);
  }
  const zip = await fetch(done.download_urls.stems);
  t.is(zip.status, 200);
  t.is(zip.headers.get('content-type'), 'application/zip');
  t.regex(zip.headers.get('content-disposition') ?? '', /\.stems\.zip"$/);
  const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
  t.is(Object.keys(entries).length, Object.keys(stemUrls).length);
  for (const [name, bytes] of Object.entries(entries)) {
    const role = /\/([a-z]+)\.wav$/.exec(name)![1]!;
    t.true(Buffer.from(bytes).equals(Buffer.from(downloaded[role]!)), name);
  }
  // A tampered stem link is refused like any other.
  t.is((await fetch(stemUrls[Object.keys(stemUrls)[0]!]!.replace('sig=', 'sig=x'))).status, 403);
});
