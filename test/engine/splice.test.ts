/** The splice behind extend and redo-a-section: bytes outside the region are the source's WAV bytes exactly. */
import test from 'ava';
import wavefile from 'wavefile';
import { encodeWav, to16, to24 } from '../../engine/encode/wav.ts';
import {
  CROSSFADE_SECONDS,
  extendRegion,
  fromPcm,
  pcmToFloat,
  remixRegion,
  splice,
  type StereoPcm,
} from '../../engine/render/splice.ts';

const RATE = 44100;

function tone(frames: number, frequency: number, amplitude: number): StereoPcm {
  const left = Float32Array.from(
    { length: frames },
    (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / RATE),
  );
  return { left, right: Float32Array.from(left, (v) => -v) };
}

/** The integer channels of a WAV as wavefile (an independent decoder) reads them. */
function decode(bytes: Uint8Array): [Int32Array, Int32Array] {
  const wav = new wavefile.WaveFile(bytes);
  const samples = wav.getSamples(false, Int32Array) as unknown as [Int32Array, Int32Array];
  return samples;
}

function sampleBytes(bytes: Uint8Array, bitDepth: 16 | 24, start: number, end: number): Buffer {
  const frame = 2 * (bitDepth / 8);
  return Buffer.from(bytes.subarray(44 + start * frame, 44 + end * frame));
}

test('every 16-bit sample survives float and back unchanged', (t) => {
  let bad = 0;
  for (let v = -32768; v <= 32767; v++) if (to16(Math.fround(fromPcm(v, 16))) !== v) bad++;
  t.is(bad, 0);
});

test('every 24-bit sample survives float and back unchanged', (t) => {
  let bad = 0;
  for (let v = -8388608; v <= 8388607; v++) if (to24(Math.fround(fromPcm(v, 24))) !== v) bad++;
  t.is(bad, 0);
});

for (const bitDepth of [16, 24] as const) {
  test(`a redone middle region leaves the ${bitDepth}-bit bytes before and after it identical`, (t) => {
    const frames = RATE * 2;
    const sourceWav = encodeWav(tone(frames, 220, 0.4).left, tone(frames, 220, 0.4).right, RATE, bitDepth);
    const source = pcmToFloat(decode(sourceWav), bitDepth);
    const rendered = tone(frames, 330, 0.4);
    const region = { start: RATE / 2, end: RATE };
    const out = splice(source, rendered, region, RATE);
    const outWav = encodeWav(out.left, out.right, RATE, bitDepth);
    t.true(sampleBytes(outWav, bitDepth, 0, region.start).equals(sampleBytes(sourceWav, bitDepth, 0, region.start)));
    t.true(
      sampleBytes(outWav, bitDepth, region.end, frames).equals(sampleBytes(sourceWav, bitDepth, region.end, frames)),
    );
    // Inside, past the crossfade, the new material is there and the source is not.
    const fade = CROSSFADE_SECONDS * RATE;
    const mid = sampleBytes(outWav, bitDepth, region.start + fade, region.end - fade);
    t.false(mid.equals(sampleBytes(sourceWav, bitDepth, region.start + fade, region.end - fade)));
  });
}

test('an extension keeps the source up to the bar line and is as long as the new render', (t) => {
  const sourceWav = encodeWav(tone(RATE, 220, 0.4).left, tone(RATE, 220, 0.4).right, RATE, 16);
  const source = pcmToFloat(decode(sourceWav), 16);
  const rendered = tone(RATE * 2, 220, 0.4);
  const out = splice(source, rendered, { start: RATE * 0.75, end: RATE * 2 }, RATE);
  t.is(out.left.length, RATE * 2);
  const outWav = encodeWav(out.left, out.right, RATE, 16);
  t.true(sampleBytes(outWav, 16, 0, RATE * 0.75).equals(sampleBytes(sourceWav, 16, 0, RATE * 0.75)));
  t.not(out.left[Math.round(RATE * 1.5)], 0);
});

test('the new region is brought to the level of the source', (t) => {
  const source = tone(RATE, 220, 0.4);
  const rendered = tone(RATE, 220, 0.2); // the whole new render came out 6 dB quieter
  const out = splice(source, rendered, { start: RATE / 4, end: RATE / 2 }, RATE);
  let peak = 0;
  for (let i = RATE / 4 + 3000; i < RATE / 2 - 3000; i++) peak = Math.max(peak, Math.abs(out.left[i]!));
  t.true(Math.abs(peak - 0.4) < 0.001, `peak ${peak}`);
});

test('the equal-power crossfade keeps uncorrelated material near its level and never jumps', (t) => {
  const source = tone(RATE, 220, 0.4);
  const rendered = tone(RATE, 220, 0.4);
  const out = splice(source, rendered, { start: RATE / 4, end: RATE / 2 }, RATE, 1);
  let jump = 0;
  for (let i = 1; i < RATE; i++) jump = Math.max(jump, Math.abs(out.left[i]! - out.left[i - 1]!));
  // A 220 Hz sine at 0.4 moves at most 2π·220/44100·0.4 ≈ 0.0125 per sample; sin+cos tops at √2 of that.
  t.true(jump < 0.0125 * Math.SQRT2 + 1e-3, `largest step ${jump}`);
});

test('a region outside the render is refused', (t) => {
  const s = tone(100, 220, 0.4);
  t.throws(() => splice(s, s, { start: 50, end: 200 }, RATE), { instanceOf: RangeError });
});

test('a redo region is the section on the bar grid, and a bad index says which are allowed', (t) => {
  const sections = [
    { start: 0, end: 8 },
    { start: 8, end: 16 },
    { start: 16, end: 30 },
  ];
  t.deepEqual(remixRegion(sections, 1, RATE, 30 * RATE), { start: 8 * RATE, end: 16 * RATE });
  const error = t.throws(() => remixRegion(sections, 3, RATE, 30 * RATE), { instanceOf: RangeError });
  t.regex(error!.message, /from 0 to 2/);
});

test("an extension starts at the bar line of the source's ending and runs to the end of the new render", (t) => {
  const sections = [
    { start: 0, end: 8 },
    { start: 8, end: 24 },
    { start: 24, end: 30 },
  ];
  t.deepEqual(extendRegion(sections, RATE, 45 * RATE), { start: 24 * RATE, end: 45 * RATE });
  t.throws(() => extendRegion([], RATE, 45 * RATE), { instanceOf: RangeError });
});
