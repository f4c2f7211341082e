/**
 * Periodic waves built from trimmed coefficients (engine/render/tone-render.ts): Tone passes 2048 coefficients
 * for every wave, mostly trailing zeros, and node-web-audio-api's cost is in the length. The trimmed waves must
 * play byte-identical to the full ones, for the shapes the patches use (band-limited sawtooth, square and
 * triangle at the fat oscillators' phases, and the custom bass partials).
 */
import test from 'ava';
import { setupWebAudioGlobals, webAudio } from '../../engine/render/globals.ts';
import { lastPartial, trimPeriodicWaves } from '../../engine/render/tone-render.ts';

const SIZE = 2048;

/** Coefficients as Tone's Oscillator builds them: `count` partials of a shape at a phase, zero-padded to 2048. */
function toneCoefficients(partials: number[], phase: number): [Float32Array, Float32Array] {
  const real = new Float32Array(SIZE);
  const imag = new Float32Array(SIZE);
  partials.forEach((b, index) => {
    const n = index + 1;
    if (b !== 0) {
      real[n] = -b * Math.sin(phase * n);
      imag[n] = b * Math.cos(phase * n);
    }
  });
  return [real, imag];
}

const shapes: Record<string, number[]> = {
  sawtooth32: Array.from({ length: 32 }, (_, i) => (2 / ((i + 1) * Math.PI)) * (i % 2 === 0 ? 1 : -1)),
  square24: Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? 4 / ((i + 1) * Math.PI) : 0)),
  triangle12: Array.from({ length: 12 }, (_, i) => {
    const n = i + 1;
    return n % 2 === 1 ? 2 * (2 / (n * Math.PI)) ** 2 * (((n - 1) >> 1) & 1 ? -1 : 1) : 0;
  }),
  custom: [1, 0.35, 0.2, 0.08, 0.04],
  sine: [1],
};

async function play(real: Float32Array, imag: Float32Array, trim: boolean): Promise<Buffer> {
  const context = new webAudio.OfflineAudioContext(1, 12000, 48000);
  if (trim) trimPeriodicWaves(context);
  const wave = context.createPeriodicWave(real, imag);
  for (const frequency of [41.2, 220, 1318.5, 7040]) {
    const oscillator = context.createOscillator();
    oscillator.setPeriodicWave(wave);
    oscillator.frequency.value = frequency;
    oscillator.connect(context.destination);
    oscillator.start(0);
  }
  const rendered = await context.startRendering();
  const samples = new Float32Array(rendered.length);
  rendered.copyFromChannel(samples, 0);
  return Buffer.from(samples.buffer);
}

test('lastPartial finds the last non-zero coefficient, never below 1', (t) => {
  const [real, imag] = toneCoefficients(shapes.sawtooth32 ?? [], Math.PI);
  t.is(lastPartial(real, imag), 32);
  t.is(lastPartial(new Float32Array(SIZE), new Float32Array(SIZE)), 1);
  const onlyImag = new Float32Array(SIZE);
  onlyImag[5] = 0.5;
  t.is(lastPartial(new Float32Array(SIZE), onlyImag), 5);
});

for (const [name, partials] of Object.entries(shapes)) {
  for (const phase of [0, Math.PI / 2, Math.PI, (2 * Math.PI) / 3]) {
    test(`a trimmed ${name} wave at phase ${phase.toFixed(3)} plays byte-identical to the full one`, async (t) => {
      const [real, imag] = toneCoefficients(partials, phase);
      const full = await play(real, imag, false);
      const trimmed = await play(real, imag, true);
      t.true(full.some((byte) => byte !== 0));
      t.true(full.equals(trimmed));
    });
  }
}

test('a fat oscillator builds no full-band periodic wave it does not play, and keeps its default of three voices', async (t) => {
  const Tone = await setupWebAudioGlobals();
  const raw = new webAudio.OfflineAudioContext(1, 128, 48000);
  const lengths: number[] = [];
  const create = raw.createPeriodicWave;
  raw.createPeriodicWave = function (this: typeof raw, real, imag, constraints) {
    lengths.push(lastPartial(real as Float32Array, imag as Float32Array));
    return create.call(this, real, imag, constraints);
  };
  const context = new Tone.OfflineContext(raw as unknown as OfflineAudioContext);
  // The first Tone oscillators of this process: Tone's wave cache (per process) cannot hide a wave being built.
  const named = new Tone.OmniOscillator({ context, type: 'fatsquare17', count: 2 });
  const unnamed = new Tone.OmniOscillator({ context, type: 'fatsawtooth9' });
  t.is(named.count, 2);
  t.is(unnamed.count, 3);
  t.true(lengths.length > 0);
  t.true(
    lengths.every((last) => last <= 17),
    `waves built: ${lengths}`,
  );
});
