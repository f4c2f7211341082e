/**
 * Ambient beds (rain, vinyl, ocean, wind), generated in plain TypeScript from seeded noise: they are long,
 * stationary and cheap to compute sample by sample, and keeping them out of the audio graph keeps renders
 * byte-identical and fast.
 */
import type { Random } from '../random.ts';
import { brownNoise, pinkNoise, whiteNoise } from './noise.ts';
import { StateVariableFilter, highPassInPlace, lowPassInPlace, rmsOf } from './filters.ts';

export const TEXTURES = ['rain', 'vinyl', 'ocean', 'wind'] as const;
export type Texture = (typeof TEXTURES)[number];

export interface StereoBed {
  left: Float32Array;
  right: Float32Array;
}

const BED_RMS = 0.1;

/** Short decaying sine "plinks" (rain drops) or clicks (vinyl crackle) at random moments. */
function scatter(
  random: Random,
  target: StereoBed,
  sampleRate: number,
  options: { perSecond: number; frequency: [number, number]; decay: [number, number]; amplitude: [number, number] },
): void {
  const frames = target.left.length;
  let time = 0;
  for (;;) {
    time += -Math.log(1 - random.next()) / options.perSecond;
    const start = Math.floor(time * sampleRate);
    if (start >= frames) break;
    const frequency = random.range(...options.frequency);
    const decay = random.range(...options.decay);
    const amplitude = random.range(...options.amplitude) * (random.chance(0.5) ? 1 : -1);
    const pan = random.next();
    const length = Math.min(frames - start, Math.ceil(decay * 6 * sampleRate));
    const step = (2 * Math.PI * frequency) / sampleRate;
    const fall = Math.exp(-1 / (decay * sampleRate));
    let envelope = amplitude;
    for (let i = 0; i < length; i++) {
      const value = envelope * Math.sin(step * i);
      target.left[start + i] = (target.left[start + i] ?? 0) + value * (1 - pan);
      target.right[start + i] = (target.right[start + i] ?? 0) + value * pan;
      envelope *= fall;
    }
  }
}

function rain(random: Random, frames: number, sampleRate: number): StereoBed {
  const bed = { left: pinkNoise(random.fork('left'), frames), right: pinkNoise(random.fork('right'), frames) };
  for (const channel of [bed.left, bed.right]) {
    highPassInPlace(channel, 400, sampleRate);
    lowPassInPlace(channel, 6000, sampleRate);
  }
  scatter(random.fork('drops'), bed, sampleRate, {
    perSecond: 30,
    frequency: [1800, 6000],
    decay: [0.002, 0.008],
    amplitude: [0.05, 0.35],
  });
  return bed;
}

function vinyl(random: Random, frames: number, sampleRate: number): StereoBed {
  const hiss = whiteNoise(random.fork('hiss'), frames);
  highPassInPlace(hiss, 3000, sampleRate);
  const rumble = brownNoise(random.fork('rumble'), frames);
  lowPassInPlace(rumble, 90, sampleRate);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    const mono = (hiss[i] ?? 0) * 0.15 + (rumble[i] ?? 0) * 0.5;
    left[i] = mono;
    right[i] = mono;
  }
  const bed = { left, right };
  scatter(random.fork('crackle'), bed, sampleRate, {
    perSecond: 12,
    frequency: [2500, 9000],
    decay: [0.0002, 0.0007],
    amplitude: [0.2, 1],
  });
  scatter(random.fork('pops'), bed, sampleRate, {
    perSecond: 0.6,
    frequency: [600, 1500],
    decay: [0.001, 0.003],
    amplitude: [0.8, 1.5],
  });
  return bed;
}

/** A noise source through a band/low-pass whose cutoff and level follow slow swells or gusts. */
function swept(random: Random, frames: number, sampleRate: number, kind: 'ocean' | 'wind'): StereoBed {
  const bed = { left: new Float32Array(frames), right: new Float32Array(frames) };
  const out = { low: 0, band: 0 };
  const channels: [Float32Array, number][] = [
    [bed.left, 0],
    [bed.right, 1.7],
  ];
  for (const [channel, phaseOffset] of channels) {
    const source =
      kind === 'ocean'
        ? pinkNoise(random.fork(`noise${phaseOffset}`), frames)
        : whiteNoise(random.fork(`noise${phaseOffset}`), frames);
    const filter = new StateVariableFilter(sampleRate, 500, kind === 'ocean' ? 0.6 : 4);
    const period1 = random.range(7, 11);
    const period2 = random.range(13, 19);
    let level = 0;
    for (let i = 0; i < frames; i++) {
      // Cutoff and level move slowly, so recomputing them every 64 samples is inaudible and much cheaper.
      if (i % 64 === 0) {
        const t = i / sampleRate;
        const swell = 0.5 - 0.5 * Math.cos((2 * Math.PI * t) / period1 + phaseOffset);
        const slow = 0.5 - 0.5 * Math.cos((2 * Math.PI * t) / period2 + phaseOffset * 2);
        level = kind === 'ocean' ? swell ** 1.5 : 0.3 + 0.7 * slow * (0.6 + 0.4 * swell);
        filter.setFrequency(kind === 'ocean' ? 250 + 2200 * level : 300 + 900 * level);
      }
      filter.process(source[i] ?? 0, out);
      channel[i] = (kind === 'ocean' ? out.low : out.band) * (0.15 + 0.85 * level);
    }
  }
  return bed;
}

/** A stereo bed of `frames` samples, normalised to a common RMS so the part gain sets its level. */
export function renderTexture(name: Texture, random: Random, frames: number, sampleRate: number): StereoBed {
  const bed =
    name === 'rain'
      ? rain(random, frames, sampleRate)
      : name === 'vinyl'
        ? vinyl(random, frames, sampleRate)
        : swept(random, frames, sampleRate, name);
  const level = (rmsOf(bed.left) + rmsOf(bed.right)) / 2;
  const scale = level > 0 ? BED_RMS / level : 0;
  for (const channel of [bed.left, bed.right])
    for (let i = 0; i < channel.length; i++) channel[i] = (channel[i] ?? 0) * scale;
  return bed;
}

export function isTexture(name: string): name is Texture {
  return (TEXTURES as readonly string[]).includes(name);
}
