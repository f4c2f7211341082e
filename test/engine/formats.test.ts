/**
 * The formats from one real render each, read back by ffmpeg/ffprobe (independent of the encoders): every file
 * decodes to the WAV's length, channels and rate; the FLAC to exactly the WAV's samples; the MP3 and the Opus
 * within 0.5 LU of the WAV's loudness (ffmpeg ebur128); and the WAV is the same whether or not they are made.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRenderPool, OUTPUT_FORMATS, type GenerationRequest, type RenderedTrack } from '../../engine/index.ts';
import { loudness } from '../helpers/analysis.ts';
import { decode, probe } from '../helpers/analysis/decode.ts';
import { parseLrc, parseVtt } from '../helpers/timed-text.ts';
import { sha256 } from '../helpers/analysis/renders.ts';

const SECONDS = 20;
const SUNG: GenerationRequest = {
  prompt: 'a happy acoustic folk song about summer',
  duration: SECONDS,
  style: null,
  instrumental: false,
  seed: 9,
  lyrics: '[Verse]\nMorning light upon the window\nCoffee steaming in my hand',
};
const ALL = { formats: [...OUTPUT_FORMATS] };

const pool = createRenderPool({ workers: 2 });
const dir = await mkdtemp(join(tmpdir(), 'tunesmith-formats-'));
test.after.always(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

interface Written {
  track: RenderedTrack;
  path(ext: string): string;
}

const renders = new Map<string, Promise<Written>>();
/** Each request renders once, shared by the tests that read it; its files are written to the temp dir. */
function rendered(name: string, request: GenerationRequest): Promise<Written> {
  let pending = renders.get(name);
  if (!pending) {
    pending = (async () => {
      const track = await pool.render(request);
      const files: Record<string, Uint8Array> = { wav: track.wav, ...track.outputs };
      await Promise.all(Object.entries(files).map(([ext, bytes]) => writeFile(join(dir, `${name}.${ext}`), bytes)));
      return { track, path: (ext: string) => join(dir, `${name}.${ext}`) };
    })();
    pending.catch(() => {});
    renders.set(name, pending);
  }
  return pending;
}

const sung = () => rendered('sung', { ...SUNG, output: ALL });
const frames44 = SECONDS * 44100;
const frames48 = SECONDS * 48000;

test('the WAV is byte-identical whether or not the other formats are made', async (t) => {
  const [plain, all] = await Promise.all([rendered('plain', SUNG), sung()]);
  t.deepEqual(Object.keys(plain.track.outputs), []);
  t.is(sha256(all.track.wav), sha256(plain.track.wav));
});

test("the MP3 decodes to exactly the WAV's frames, stereo 44.1 kHz (its info frame trims the encoder delay)", async (t) => {
  const { path } = await sung();
  const info = await probe(path('mp3'));
  t.like(info, { codec: 'mp3', sampleRate: 44100, channels: 2 });
  t.is((await decode(path('mp3'))).frames, frames44);
  // VBR -V2: about 190 kbps on music, so well above 128 and below 256.
  t.true(info.bitRate > 128_000 && info.bitRate < 256_000, String(info.bitRate));
});

test("the Opus decodes to exactly the WAV's length at 48 kHz, stereo", async (t) => {
  const { path } = await sung();
  t.like(await probe(path('opus')), { codec: 'opus', sampleRate: 48000, channels: 2 });
  t.is((await decode(path('opus'))).frames, frames48);
});

test("the FLAC decodes to exactly the WAV's samples", async (t) => {
  const { path } = await sung();
  t.like(await probe(path('flac')), { codec: 'flac', sampleRate: 44100, channels: 2, bits: 16 });
  const [flac, wav] = await Promise.all([decode(path('flac')), decode(path('wav'))]);
  t.is(flac.frames, frames44);
  t.is(flac.sha256, wav.sha256);
});

for (const format of ['mp3', 'opus'] as const) {
  test(`the ${format === 'mp3' ? 'MP3' : 'Opus'} is within 0.5 LU of the WAV's integrated loudness (ffmpeg ebur128)`, async (t) => {
    const { path } = await sung();
    const [wav, encoded] = await Promise.all([loudness(path('wav')), loudness(path(format))]);
    t.log(`WAV ${wav.integratedLufs} LUFS, ${format} ${encoded.integratedLufs} LUFS`);
    t.true(Math.abs(encoded.integratedLufs - wav.integratedLufs) <= 0.5);
  });
}

test('the loudness in the metadata agrees with ffmpeg ebur128 on the WAV', async (t) => {
  const { path, track } = await sung();
  const measured = await loudness(path('wav'));
  t.truthy(track.metadata.loudness);
  t.true(
    Math.abs(track.metadata.loudness!.integrated - measured.integratedLufs) <= 0.5,
    `${track.metadata.loudness!.integrated} vs ${measured.integratedLufs}`,
  );
  t.true(
    Math.abs(track.metadata.loudness!.true_peak - measured.truePeakDbtp) <= 0.5,
    `${track.metadata.loudness!.true_peak} vs ${measured.truePeakDbtp}`,
  );
});

test('sample_rate 48000 and bit_depth 24 make a 24-bit 48 kHz WAV and FLAC of the same length; a set bitrate makes a CBR MP3; the Opus keeps its length', async (t) => {
  const { path } = await rendered('hi-res', {
    ...SUNG,
    lyrics: null,
    instrumental: true,
    output: { formats: ['flac', 'mp3', 'opus'], sampleRate: 48000, bitDepth: 24, mp3Bitrate: 128 },
  });
  for (const ext of ['wav', 'flac']) {
    t.like(await probe(path(ext)), { sampleRate: 48000, channels: 2, bits: 24 }, ext);
    t.is((await decode(path(ext))).frames, frames48, ext);
  }
  const mp3 = await probe(path('mp3'));
  t.like(mp3, { sampleRate: 44100, channels: 2 });
  t.true(Math.abs(mp3.bitRate - 128_000) < 2_000, String(mp3.bitRate));
  // The Opus then reuses the 48 kHz samples: still exactly the track's length.
  t.is((await decode(path('opus'))).frames, frames48);
});

test('the LRC has the title and one timed line per sung line, at its start', async (t) => {
  const { track } = await sung();
  const timing = track.metadata.lyrics_timing!;
  const lrc = parseLrc(Buffer.from(track.outputs.lrc!).toString('utf8'));
  t.is(lrc.tags.ti, track.title);
  t.deepEqual(
    lrc.lines.map((line) => line.text),
    timing.map((line) => line.text),
  );
  lrc.lines.forEach((line, i) => {
    t.true(Math.abs(line.start - timing[i]!.start) <= 0.005);
  });
});

test("the WebVTT has one cue per sung line with its start and end, and each later word's start inside it", async (t) => {
  const { track } = await sung();
  const timing = track.metadata.lyrics_timing!;
  const cues = parseVtt(Buffer.from(track.outputs.vtt!).toString('utf8'));
  t.deepEqual(
    cues.map((cue) => cue.text),
    timing.map((line) => line.text),
  );
  cues.forEach((cue, i) => {
    const line = timing[i]!;
    t.true(Math.abs(cue.start - line.start) <= 0.0005 && Math.abs(cue.end - line.end) <= 0.0005);
    const inside = line.words
      .filter((word) => word.start > line.start && word.start < line.end)
      .map((word) => word.start);
    t.deepEqual(
      cue.stamps.map((s) => Math.round(s * 1000)),
      inside.map((s) => Math.round(s * 1000)),
    );
  });
});

test('an instrumental track has no lyrics files', async (t) => {
  const { track } = await rendered('hi-res', {
    ...SUNG,
    lyrics: null,
    instrumental: true,
    output: { formats: ['flac', 'mp3', 'opus'], sampleRate: 48000, bitDepth: 24, mp3Bitrate: 128 },
  });
  t.is(track.outputs.lrc, undefined);
  t.is(track.outputs.vtt, undefined);
  const withAll = await rendered('instrumental-all', {
    ...SUNG,
    duration: 8,
    lyrics: null,
    instrumental: true,
    output: ALL,
  });
  t.deepEqual(Object.keys(withAll.track.outputs).sort(), ['flac', 'mp3', 'opus']);
});
