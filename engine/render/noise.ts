/**
 * Seeded noise. Tone's Noise draws from Math.random (buffer and start offset), which would make two renders of
 * the same score differ, so every noise in the engine comes from these generators instead.
 */
import type { Random } from '../random.ts';

export function whiteNoise(random: Random, length: number): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = random.next() * 2 - 1;
  return out;
}

/** Pink (−3 dB/octave) noise: Paul Kellet's economy filter over white noise. */
export function pinkNoise(random: Random, length: number): Float32Array {
  const out = new Float32Array(length);
  let b0 = 0,
    b1 = 0,
    b2 = 0;
  for (let i = 0; i < length; i++) {
    const white = random.next() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = (b0 + b1 + b2 + white * 0.1848) * 0.2;
  }
  return out;
}

/** Brown (−6 dB/octave) noise: leaky integrated white noise. */
export function brownNoise(random: Random, length: number): Float32Array {
  const out = new Float32Array(length);
  let last = 0;
  for (let i = 0; i < length; i++) {
    last = (last + 0.02 * (random.next() * 2 - 1)) / 1.02;
    out[i] = last * 3.5;
  }
  return out;
}
