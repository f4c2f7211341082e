/** The track page's waveform: any WAV we write (16- or 24-bit, 44.1 or 48 kHz), read once per track, failures too. */
import test from 'ava';
import { Readable } from 'node:stream';
import { encodeWav } from '../engine/encode/wav.ts';
import { WaveformCache, wavPeaks, wavPeaksOf } from '../src/dashboard/waveform.ts';
import { startApp } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';

/** Two seconds of stereo: a loud first half, a quiet second half. */
function stereo(sampleRate: number): [Float32Array, Float32Array] {
  const left = new Float32Array(2 * sampleRate);
  for (let i = 0; i < left.length; i++)
    left[i] = (i < sampleRate ? 0.8 : 0.2) * Math.sin((2 * Math.PI * 440 * i) / sampleRate);
  return [left, left.slice()];
}

function chunked(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  return Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size)),
  );
}

for (const [sampleRate, bitDepth] of [
  [44100, 16],
  [48000, 16],
  [44100, 24],
  [48000, 24],
] as const) {
  test(`the waveform reads a ${bitDepth}-bit ${sampleRate / 1000} kHz WAV, whole or in odd-sized chunks`, async (t) => {
    const wav = encodeWav(...stereo(sampleRate), sampleRate, bitDepth);
    const peaks = wavPeaks(wav, 20);
    t.is(peaks.length, 20);
    for (const peak of peaks.slice(0, 10)) t.true(Math.abs(peak - 0.8) < 0.01, String(peak));
    for (const peak of peaks.slice(10)) t.true(Math.abs(peak - 0.2) < 0.01, String(peak));
    t.deepEqual(await wavPeaksOf(chunked(wav, 7), 20), peaks);
    t.deepEqual(await wavPeaksOf(chunked(wav, 65536), 20), peaks);
  });
}

test('a waveform is computed once per track', async (t) => {
  const cache = new WaveformCache();
  let opened = 0;
  const open = async () => {
    opened++;
    return chunked(encodeWav(...stereo(8000), 8000, 24), 4096);
  };
  const [first, second] = await Promise.all([cache.svg('gen_a', open), cache.svg('gen_a', open)]);
  t.is(first, second);
  t.is(await cache.svg('gen_a', open), first);
  t.is(opened, 1);
});

test('a waveform that failed is not read again at every view, only after a while', async (t) => {
  let now = 0;
  const cache = new WaveformCache({ now: () => now });
  let opened = 0;
  const open = async () => {
    opened++;
    return chunked(new TextEncoder().encode('RIFF\0\0\0\0WAVEjunk'), 4);
  };
  await t.throwsAsync(cache.svg('gen_b', open), { message: 'WAV without a data chunk' });
  await t.throwsAsync(cache.svg('gen_b', open), { message: 'WAV without a data chunk' });
  t.is(opened, 1);
  now += 11 * 60 * 1000;
  await t.throwsAsync(cache.svg('gen_b', open));
  t.is(opened, 2);
});

test("a 24-bit 48 kHz track's page has its waveform", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('wave@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  const generation = await app.jobs.complete(id);
  await app.store.blobs.put(generation.files!.wav!, encodeWav(...stereo(48000), 48000, 24), {
    contentType: 'audio/wav',
  });
  const svg = await browser.get(`/generations/${id}/waveform.svg`);
  t.is(svg.status, 200);
  t.regex(svg.text, /^<svg[^>]*>.*<rect/);
});
