/**
 * The formats through the real server and render worker (one sung 30 s track, the API's shortest): every
 * download link serves its file with its type, a file name from the title and byte ranges; each file decodes
 * with ffmpeg to the track's length, channels and rate; and the track's tempo, key, meter, sections and
 * loudness are top-level fields.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decode, probe } from './helpers/analysis/decode.ts';
import { sharedRender } from './helpers/shared-render.ts';
import { parseLrc, parseVtt } from './helpers/timed-text.ts';

const SECONDS = 30;
const LYRICS =
  '[Verse]\nMorning light upon the window\nCoffee steaming in my hand\n\n[Chorus]\nSing it out and sing it loud\nDancing in the summer crowd';

/** One server, one render, shared by every test in this file. */
const render = sharedRender({
  prompt: 'a happy acoustic folk song',
  duration: SECONDS,
  seed: 9,
  lyrics: LYRICS,
  bitrate: 192,
});

const EXPECTED = {
  wav: { type: 'audio/wav', ext: 'wav', codec: 'pcm_s16le', rate: 44100 },
  mp3: { type: 'audio/mpeg', ext: 'mp3', codec: 'mp3', rate: 44100 },
  opus: { type: 'audio/ogg; codecs=opus', ext: 'opus', codec: 'opus', rate: 48000 },
  flac: { type: 'audio/flac', ext: 'flac', codec: 'flac', rate: 44100 },
} as const;

test.serial('a completed sung generation links wav, mp3, opus, flac, midi, lrc and vtt', async (t) => {
  const { generation } = await render();
  t.deepEqual(Object.keys(generation.download_urls).sort(), ['flac', 'lrc', 'midi', 'mp3', 'opus', 'vtt', 'wav']);
  t.like(generation, { sample_rate: 44100, bit_depth: 16, bitrate: 192 });
});

for (const [kind, expected] of Object.entries(EXPECTED)) {
  test(`the ${kind} link serves ${expected.type} that decodes to ${SECONDS} s of stereo at ${expected.rate} Hz`, async (t) => {
    const { generation, dir } = await render();
    const res = await fetch(generation.download_urls[kind]);
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), expected.type);
    t.regex(
      res.headers.get('content-disposition') ?? '',
      new RegExp(`^attachment; filename="[a-z0-9-]+\\.${expected.ext}"$`),
    );
    // An MP3's first download streams as it is encoded, chunked and without ranges until it is stored.
    t.is(res.headers.get('accept-ranges'), res.headers.get('content-length') === null ? null : 'bytes');
    const path = join(dir, `track.${expected.ext}`);
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    t.like(await probe(path), { codec: expected.codec, sampleRate: expected.rate, channels: 2 });
    t.is((await decode(path)).frames, SECONDS * expected.rate);
  });
}

test('a byte range of the MP3 is a 206 with exactly those bytes', async (t) => {
  const { generation } = await render();
  const whole = Buffer.from(await (await fetch(generation.download_urls.mp3)).arrayBuffer());
  const part = await fetch(generation.download_urls.mp3, { headers: { Range: 'bytes=1000-1999' } });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), `bytes 1000-1999/${whole.length}`);
  t.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(1000, 2000));
});

test('the MP3 is at the requested 192 kbps constant bitrate', async (t) => {
  const { generation, dir } = await render();
  const path = join(dir, 'cbr.mp3');
  await writeFile(path, Buffer.from(await (await fetch(generation.download_urls.mp3)).arrayBuffer()));
  t.true(Math.abs((await probe(path)).bitRate - 192_000) < 2_000);
});

test('the LRC and the WebVTT links serve the sung lines at their lyrics_timing', async (t) => {
  const { generation } = await render();
  const timing = generation.metadata.lyrics_timing as { text: string; start: number; end: number }[];
  const lrcRes = await fetch(generation.download_urls.lrc);
  t.is(lrcRes.headers.get('content-type'), 'text/plain; charset=utf-8');
  const lrc = parseLrc(await lrcRes.text());
  t.deepEqual(
    lrc.lines.map((line) => line.text),
    timing.map((line) => line.text),
  );
  lrc.lines.forEach((line, i) => {
    t.true(Math.abs(line.start - timing[i]!.start) <= 0.005);
  });
  const vttRes = await fetch(generation.download_urls.vtt);
  t.is(vttRes.headers.get('content-type'), 'text/vtt; charset=utf-8');
  const cues = parseVtt(await vttRes.text());
  t.deepEqual(
    cues.map((cue) => cue.text),
    timing.map((line) => line.text),
  );
  cues.forEach((cue, i) => {
    t.true(Math.abs(cue.start - timing[i]!.start) <= 0.0005 && Math.abs(cue.end - timing[i]!.end) <= 0.0005);
  });
});

test('the generation carries bpm, key, time_signature, sections with bars, and loudness at the top level', async (t) => {
  const { generation } = await render();
  t.is(generation.bpm, generation.metadata.bpm);
  t.is(generation.key, generation.metadata.key);
  t.regex(generation.time_signature, /^\d+\/\d+$/);
  t.true(generation.sections.length >= 2);
  for (const section of generation.sections) {
    t.true(section.bars > 0 && section.end > section.start, JSON.stringify(section));
    // A section's bars at the track's tempo and meter take its length in seconds.
    const barSeconds =
      (60 / generation.bpm) *
      Number(generation.time_signature.split('/')[0]) *
      (4 / Number(generation.time_signature.split('/')[1]));
    t.true(Math.abs(section.bars * barSeconds - (section.end - section.start)) < barSeconds, JSON.stringify(section));
  }
  t.true(Math.abs(generation.loudness.integrated - -14) <= 1);
  t.true(generation.loudness.true_peak <= -1);
});
