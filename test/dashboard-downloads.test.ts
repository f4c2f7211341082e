/** The track page offers every file the generation has, each link serving its format, and the facts from the track as data. */
import test from 'ava';
import { unzipSync } from 'fflate';
import { startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';

test("a completed track's page offers WAV, MP3, Opus, FLAC, MIDI, LRC and WebVTT downloads that serve their types", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'ana@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'a folk song', duration: '30' })).location!,
  )![1]!;
  const done = await app.jobs.complete(id);
  const account = done.account_id;
  // The fake queue writes a WAV and a MIDI; the other files are stand-ins here (their content is the formats test's concern).
  const files = {
    ...done.files!,
    mp3: `audio/${account}/${id}.mp3`,
    opus: `audio/${account}/${id}.opus`,
    flac: `audio/${account}/${id}.flac`,
    lrc: `audio/${account}/${id}.lrc`,
    vtt: `audio/${account}/${id}.vtt`,
  };
  for (const kind of ['mp3', 'opus', 'flac', 'lrc', 'vtt'] as const)
    await app.store.blobs.put(files[kind], Buffer.from(kind), { contentType: 'application/octet-stream' });
  await app.store.transaction((tx) =>
    tx.updateGeneration(id, { files, metadata: { ...done.metadata, loudness: { integrated: -14, true_peak: -1.6 } } }),
  );

  const page = await browser.get(`/generations/${id}`);
  const links = [
    ...page.text.matchAll(/<a class="button small[^"]*" href="([^"]+)" download>Download ([^<]+)<\/a>/g),
  ].map((m) => [m[2]!, m[1]!.replaceAll('&amp;', '&')] as const);
  t.deepEqual(
    links.map(([label]) => label),
    ['WAV', 'MP3', 'Opus', 'FLAC', 'MIDI', 'Lyrics (LRC)', 'Subtitles (WebVTT)'],
  );
  const types = await Promise.all(
    links.map(async ([, href]) => (await fetch(app.url + href)).headers.get('content-type')),
  );
  t.deepEqual(types, [
    'audio/wav',
    'audio/mpeg',
    'audio/ogg; codecs=opus',
    'audio/flac',
    'audio/midi',
    'text/plain; charset=utf-8',
    'text/vtt; charset=utf-8',
  ]);
  t.regex(page.text, /<audio controls preload="metadata" src="\/files\/[^"]+\.wav\?/);
  t.regex(page.text, /<dt>Time signature<\/dt><dd>4\/4<\/dd>/);
  t.regex(page.text, /<dt>Loudness<\/dt><dd>-14\.0 LUFS · peak -1\.6 dBTP<\/dd>/);
});

test("the playground's audio options reach the task as sample_rate, bit_depth and bitrate", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'bo@example.com');
  const form = await browser.get('/playground');
  t.regex(
    form.text,
    /<select id="sample_rate" name="sample_rate"[^>]*>\s*<option value="" selected>44\.1 kHz<\/option><option value="48000">48 kHz<\/option>/,
  );
  const res = await browser.post('/playground', {
    prompt: 'a folk song',
    duration: '30',
    sample_rate: '48000',
    bit_depth: '24',
    bitrate: '320',
  });
  t.is(res.status, 303);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  t.deepEqual(app.jobs.queued.find((g) => g.id === id)?.encoding, { sample_rate: 48000, bit_depth: 24, bitrate: 320 });
});

test('an audio option the API refuses is shown next to its select', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'cy@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a folk song', duration: '30', bitrate: '100' });
  t.is(res.status, 400);
  t.regex(
    res.text,
    /id="bitrate-error"[^>]*>&quot;bitrate&quot; must be one of 96, 128, 160, 192, 256, 320 kbps, not 100\./,
  );
  t.regex(res.text, /<details class="audio-options" open>/);
});

test('a track with stems shows a player and a download for each stem, and the zip of them all', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'di@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'a folk song', duration: '30' })).location!,
  )![1]!;
  const done = await app.jobs.complete(id);
  const base = done.files!.wav.replace(/\.wav$/, '');
  const stems = { drums: `${base}.stem-drums.wav`, bass: `${base}.stem-bass.wav` };
  for (const [role, path] of Object.entries(stems))
    await app.store.blobs.put(path, Buffer.from(`RIFF${role}`), { contentType: 'audio/wav' });
  await app.store.transaction((tx) => tx.updateGeneration(id, { files: { ...done.files!, stems } }));

  const page = await browser.get(`/generations/${id}`);
  const players = [
    ...page.text.matchAll(/<li><span>([a-z]+)<\/span> <audio controls preload="none" src="([^"]+)"><\/audio>/g),
  ].map((m) => [m[1]!, m[2]!.replaceAll('&amp;', '&')] as const);
  t.deepEqual(
    players.map(([role]) => role),
    ['drums', 'bass'],
  );
  for (const [role, href] of players) t.is(await (await fetch(app.url + href)).text(), `RIFF${role}`);
  const zip = /href="([^"]+stems\.zip[^"]+)" download>Download all stems \(zip\)/
    .exec(page.text)![1]!
    .replaceAll('&amp;', '&');
  const res = await fetch(app.url + zip);
  t.is(res.headers.get('content-type'), 'application/zip');
  // One folder named after the track, one WAV per stem in it.
  const names = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())));
  t.deepEqual(names.map((name) => name.replace(/^[a-z0-9-]+\//, '')).sort(), ['bass.wav', 'drums.wav']);
});

test("the playground's loop and stems boxes reach the task as loop and stems", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'ed@example.com');
  const form = await browser.get('/playground');
  t.regex(form.text, /<input type="checkbox" id="loop" name="loop" value="on">/);
  t.regex(form.text, /<input type="checkbox" id="stems" name="stems" value="on">/);
  const res = await browser.post('/playground', { prompt: 'a lofi loop', duration: '30', loop: 'on', stems: 'on' });
  t.is(res.status, 303);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  t.like(
    app.jobs.queued.find((g) => g.id === id),
    { loop: true, stems: true },
  );
});
