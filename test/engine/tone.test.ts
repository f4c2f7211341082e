/**
 * A style's treatment of a part before the mix (render/tone.ts, Preset.tone): boom bap's sample loop comes out of
 * a sampler low-passed and crushed, each stored sample treated once. Checked on signals whose answer is known, and on the boom bap score.
 */
import test from 'ava';
import { compose, interpret } from '../../engine/index.ts';
import { SAMPLE_RATE } from '../../engine/render/constants.ts';
import { padHit, treatNotes, treatSample } from '../../engine/render/tone.ts';
import { validatePreset } from '../../engine/presets.ts';
import { readFileSync } from 'node:fs';

const FRAMES = SAMPLE_RATE;

function sine(frequency: number, amplitude = 0.5): Float32Array {
  return Float32Array.from(
    { length: FRAMES },
    (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE),
  );
}

/** RMS of the second half (past the filters' settling). */
function rms(data: Float32Array): number {
  let sum = 0;
  for (let i = FRAMES / 2; i < FRAMES; i++) sum += (data[i] ?? 0) ** 2;
  return Math.sqrt(sum / (FRAMES / 2));
}

test('the low-pass takes a tone two octaves over its cutoff down by more than 40 dB', (t) => {
  const tone = sine(8000);
  t.true(20 * Math.log10(rms(treatSample(tone, { lowpass: 2000 })) / rms(tone)) < -40);
});

test('the low-pass leaves a tone two octaves under its cutoff within 0.5 dB, and the sample it was given alone', (t) => {
  const tone = sine(500);
  const copy = Float32Array.from(tone);
  t.true(Math.abs(20 * Math.log10(rms(treatSample(tone, { lowpass: 2000 })) / rms(tone))) < 0.5);
  // Samples are cached and shared between parts and renders: the treatment works on a copy.
  t.deepEqual(tone, copy);
});

test('the high-pass takes a tone two octaves under its cutoff down by more than 40 dB and leaves one two octaves over within 0.5 dB', (t) => {
  const low = sine(60);
  const high = sine(1000);
  t.true(20 * Math.log10(rms(treatSample(low, { highpass: 250 })) / rms(low)) < -40);
  t.true(Math.abs(20 * Math.log10(rms(treatSample(high, { highpass: 250 })) / rms(high))) < 0.5);
});

test('a pad levels its drum by its dB and chops its hit at its length with a short fade; other drums pass as they are', (t) => {
  const hit = { gain: 0.5, holdFrames: SAMPLE_RATE, releaseFrames: 100 };
  const tone = { pads: { kick: 6 }, chop: { hat: 0.1 } };
  t.is(padHit(hit, tone, 'snare'), hit);
  t.true(Math.abs(padHit(hit, tone, 'kick').gain / hit.gain - 10 ** (6 / 20)) < 1e-9);
  const hat = padHit(hit, tone, 'hat');
  t.is(hat.holdFrames, Math.round(0.1 * SAMPLE_RATE));
  t.true(hat.holdFrames + hat.releaseFrames < 0.15 * SAMPLE_RATE);
  // A hit already shorter than its pad's length is left whole.
  const short = { gain: 1, holdFrames: 100, releaseFrames: 10 };
  t.deepEqual(padHit(short, tone, 'hat'), short);
});

test('crushing to 4 bits leaves at most 16 levels, relative to the sample peak, held for a whole sample of the lower rate', (t) => {
  const crushed = treatSample(sine(110, 0.05), { bits: 4, rate: 11025 });
  const levels = new Set(crushed);
  t.true(levels.size <= 17, `${levels.size} levels`);
  // A 0.05 peak still uses the whole range: the crush is relative to the sample, not to full scale.
  t.true(levels.size >= 15, `${levels.size} levels`);
  for (let i = 0; i + 4 <= 400; i += 4) t.is(new Set(crushed.subarray(i, i + 4)).size, 1);
});

test('each distinct sample is treated once, however many notes replay it', (t) => {
  const a = sine(220),
    b = sine(330);
  const notes = treatNotes([{ sample: a }, { sample: b }, { sample: a }], { lowpass: 2000 });
  t.is(notes[0]?.sample, notes[2]?.sample);
  t.not(notes[0]?.sample, notes[1]?.sample);
  t.not(notes[0]?.sample, a);
});

test('a note cut from a longer sample is treated as the longer one: the treatment is kept across tracks', (t) => {
  const decaying = Float32Array.from(sine(220), (x, i) => x * Math.exp(-i / 12000));
  const tone = { lowpass: 2400, rate: 26040, bits: 8 };
  const long = treatNotes([{ sample: decaying }], tone)[0]?.sample;
  const short = treatNotes([{ sample: decaying.subarray(0, FRAMES / 4) }], tone)[0]?.sample;
  t.is(short?.buffer, long?.buffer, 'the later track reuses the treatment');
  t.deepEqual(short, long?.subarray(0, FRAMES / 4));
  // And the same as treating that view alone, first: what a fresh worker renders.
  const alone = treatSample(Float32Array.from(decaying), tone).subarray(0, FRAMES / 4);
  t.deepEqual(short, alone);
});

test('a preset may treat a role, within bounds; the boom bap loop carries its treatment into the score', (t) => {
  const raw = JSON.parse(readFileSync(new URL('../../presets/hiphop.json', import.meta.url), 'utf8'));
  t.throws(() => validatePreset({ ...raw, tone: { chords: { lowpass: 50 } } }, 'hiphop.json', 'hiphop'), {
    message: /tone.chords.lowpass/,
  });
  t.throws(() => validatePreset({ ...raw, tone: { chords: { drive: 2 } } }, 'hiphop.json', 'hiphop'), {
    message: /unknown field "drive"/,
  });
  t.throws(() => validatePreset({ ...raw, tone: { drums: { pads: { cowbell: 3 } } } }, 'hiphop.json', 'hiphop'), {
    message: /tone.drums.pads drum/,
  });
  t.throws(() => validatePreset({ ...raw, tone: { drums: { chop: { hat: 0 } } } }, 'hiphop.json', 'hiphop'), {
    message: /tone.drums.chop.hat/,
  });
  const score = compose(
    interpret({ prompt: 'boom bap hip hop beat, 90 bpm', duration: 30, style: null, instrumental: true, seed: 1 }),
  );
  const chords = score.parts.find((part) => part.role === 'chords');
  t.truthy(chords?.tone?.lowpass);
  t.true((chords?.tone?.lowpass ?? Infinity) < 4000);
  // Styles without a treatment give their parts none.
  const pop = compose(
    interpret({ prompt: 'upbeat pop song, 116 bpm', duration: 30, style: null, instrumental: true, seed: 1 }),
  );
  t.true(pop.parts.every((part) => part.tone === undefined));
});
