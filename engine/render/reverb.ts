/**
 * Convolution reverb at a quarter of the sample rate. node-web-audio-api's ConvolverNode partitions the impulse
 * in 128-frame blocks, so its cost grows with impulse length × sample rate (a 3 s impulse at 44.1 kHz cost ~2.8 s
 * per minute of audio). A reverb tail carries little above 5 kHz, so the send is low-passed and decimated to
 * 11025 Hz, convolved there (16× cheaper) and played back through the main context's resampler.
 */
import type { SongSpec } from '../types.ts';
import type { Random } from '../random.ts';
import { webAudio } from './globals.ts';
import { SAMPLE_RATE } from './constants.ts';
import { highPassInPlace, lowPassInPlace } from './filters.ts';
import { copyChannel } from './tone-render.ts';
import { free } from './free.ts';

export const REVERB_RATE = SAMPLE_RATE / 4;

/** A stereo impulse of exponentially decaying seeded noise: −60 dB after `decaySeconds`, with a short pre-delay. */
export function impulseResponse(random: Random, decaySeconds: number, rate: number): [Float32Array, Float32Array] {
  const decay = Math.max(0.3, Math.min(8, decaySeconds));
  const length = Math.round(decay * rate);
  const preDelay = Math.round(0.012 * rate);
  const channels: [Float32Array, Float32Array] = [new Float32Array(length), new Float32Array(length)];
  for (const channel of channels) {
    let energy = 0;
    for (let i = preDelay; i < length; i++) {
      const t = (i - preDelay) / rate;
      const value = (random.next() * 2 - 1) * Math.exp((-6.9 * t) / decay);
      channel[i] = value;
      energy += value * value;
    }
    // Later reflections lose their highs: a gentle low-pass makes the tail darker than the onset.
    lowPassInPlace(channel, 3500, rate);
    energy = 0;
    for (let i = 0; i < length; i++) energy += (channel[i] ?? 0) * (channel[i] ?? 0);
    const norm = energy > 0 ? 1 / Math.sqrt(energy) : 0;
    for (let i = 0; i < length; i++) channel[i] = (channel[i] ?? 0) * norm;
  }
  return channels;
}

/**
 * Styles played by real instruments in a real place: their reverb is a room or a hall ('acoustic'). The others
 * (electronic, lo-fi, pop production) keep the smooth diffuse tail of impulseResponse.
 */
const ACOUSTIC_GENRES: ReadonlySet<string> = new Set([
  'orchestral',
  'waltz',
  'jazz',
  'folk',
  'piano',
  'soul',
  'rock',
  'reggae',
  'hiphop',
  'country',
  'metal',
  'punk',
  'blues',
  'gospel',
  'salsa',
  'samba',
  'tango',
  'afrobeat',
  'celtic',
  'disco',
  'funk',
  'cinematic',
  'lullaby',
  'kids',
]);

export interface ReverbSpace {
  kind: 'diffuse' | 'acoustic';
  /** Seconds to −60 dB (of the lows, for an acoustic space). */
  decay: number;
}

export function reverbSpaceOf(spec: Pick<SongSpec, 'genre' | 'effects'>): ReverbSpace {
  return { kind: ACOUSTIC_GENRES.has(spec.genre) ? 'acoustic' : 'diffuse', decay: spec.effects.reverbDecay };
}

/** Speed of sound, m/s. */
const SOUND_SPEED = 343;

/**
 * A room or a concert hall, sized by its decay (about 1 s: a studio live room; 4 s and more: a large hall).
 *
 * - Early reflections from a shoebox's image sources up to the third order (walls, floor, ceiling), heard by two
 *   spaced microphones aimed left and right: each channel gets its own pattern of reflections, which is most of
 *   what makes a real room sound wide and places the walls.
 * - A diffuse tail of seeded noise (independent per channel) that builds up as the reflections thicken, then
 *   decays; a low-pass whose cutoff falls as the tail goes on makes the highs die sooner than the lows, as air
 *   and soft surfaces absorb them.
 * - A pre-delay that grows with the room, and a gentle high-pass so the lows do not boom.
 *
 * Both channels together have unit energy, like impulseResponse.
 */
export function roomImpulse(random: Random, decaySeconds: number, rate: number): [Float32Array, Float32Array] {
  const decay = Math.max(0.3, Math.min(8, decaySeconds));
  const length = Math.round(decay * rate);
  const size = Math.max(0, Math.min(1, (decay - 0.8) / 3.2));
  const room = [7 + 25 * size, 5 + 17 * size, 3 + 9 * size] as const;
  const source = [0.2 * room[0], 0.5 * room[1] + random.range(-0.5, 0.5), 1.4] as const;
  const listener = [0.62 * room[0], 0.5 * room[1], 1.7] as const;
  const preDelay = 0.004 + 0.016 * size;
  /** Where the reflections have become too dense to hear apart and the diffuse tail has taken over. */
  const mixing = 0.025 + 0.085 * size;
  const reflectivity = 0.78 + 0.1 * size;
  const direct = Math.hypot(source[0] - listener[0], source[1] - listener[1], source[2] - listener[2]);
  const early: [Float32Array, Float32Array] = [new Float32Array(length), new Float32Array(length)];
  const spacing = 0.3 + 0.5 * size;
  for (const [channel, side] of [
    [0, -1],
    [1, 1],
  ] as const) {
    const mic = [listener[0], listener[1] + (side * spacing) / 2, listener[2]];
    const out = early[channel];
    // Image sources: along each axis, 2nL ± s; reflections off that axis |2n| (same sign) or |2n − 1| (mirrored).
    for (let nx = -2; nx <= 2; nx++)
      for (const px of [1, -1])
        for (let ny = -2; ny <= 2; ny++)
          for (const py of [1, -1])
            for (let nz = -1; nz <= 1; nz++)
              for (const pz of [1, -1]) {
                const order =
                  Math.abs(px > 0 ? 2 * nx : 2 * nx - 1) +
                  Math.abs(py > 0 ? 2 * ny : 2 * ny - 1) +
                  Math.abs(pz > 0 ? 2 * nz : 2 * nz - 1);
                if (order === 0 || order > 3) continue;
                const x = 2 * nx * room[0] + px * source[0] - (mic[0] ?? 0);
                const y = 2 * ny * room[1] + py * source[1] - (mic[1] ?? 0);
                const z = 2 * nz * room[2] + pz * source[2] - (mic[2] ?? 0);
                const distance = Math.hypot(x, y, z);
                const at = (preDelay + (distance - direct) / SOUND_SPEED) * rate;
                if (at / rate > preDelay + mixing * 1.5 || at + 2 >= length) continue;
                // The microphone on this side hears reflections from its side louder (a wide cardioid aimed sideways).
                const facing = 0.6 + 0.4 * ((side * y) / distance);
                const amplitude = (reflectivity ** order * direct * facing * random.range(0.8, 1.2)) / distance;
                // Spread over neighbouring samples: a real surface scatters, and the arrival falls between samples.
                const i0 = Math.floor(at);
                const fraction = at - i0;
                out[i0] = (out[i0] ?? 0) + amplitude * (1 - fraction) * 0.75;
                out[i0 + 1] = (out[i0 + 1] ?? 0) + amplitude * (fraction * 0.75 + 0.25 * (1 - fraction));
                out[i0 + 2] = (out[i0 + 2] ?? 0) + amplitude * 0.25 * fraction;
              }
  }
  const start = Math.round(preDelay * rate);
  const tail: [Float32Array, Float32Array] = [new Float32Array(length), new Float32Array(length)];
  // Two one-pole stages whose cutoff falls from near Nyquist (by e every decay/3 seconds, never under 150 Hz):
  // 12 dB/octave more decay above the cutoff. The envelope and cutoff advance by a factor per frame; the
  // coefficient is recomputed every 32 frames.
  const envelopeStep = Math.exp(-6.9 / (decay * rate));
  const cutoffStep = Math.exp((-3 * 32) / (decay * rate));
  for (const out of tail) {
    let low1 = 0,
      low2 = 0,
      envelope = 1,
      cutoff = 0.42 * rate,
      a = 0;
    for (let i = start; i < length; i++) {
      const t = (i - start) / rate;
      if (((i - start) & 31) === 0) {
        a = Math.exp((-2 * Math.PI * Math.max(150, cutoff)) / rate);
        cutoff *= cutoffStep;
      }
      const buildUp = t < mixing ? (t / mixing) ** 1.5 : 1;
      const x = (random.next() * 2 - 1) * buildUp * envelope;
      envelope *= envelopeStep;
      low1 = x + a * (low1 - x);
      low2 = low1 + a * (low2 - low1);
      out[i] = low2;
    }
  }
  // Early reflections carry a set share of the energy: more in a small room, where they are most of what is heard.
  const earlyShare = 0.35 - 0.2 * size;
  const energy = (pair: [Float32Array, Float32Array]) => {
    let sum = 0;
    for (const channel of pair) for (let i = 0; i < channel.length; i++) sum += (channel[i] ?? 0) * (channel[i] ?? 0);
    return sum;
  };
  const earlyGain = Math.sqrt((earlyShare / (1 - earlyShare)) * (energy(tail) / Math.max(1e-12, energy(early))));
  for (const [out, reflections] of [
    [tail[0], early[0]],
    [tail[1], early[1]],
  ] as const) {
    for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) + (reflections[i] ?? 0) * earlyGain;
    highPassInPlace(out, 90, rate);
  }
  const norm = Math.sqrt(2 / Math.max(1e-12, energy(tail)));
  for (const out of tail) for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) * norm;
  return tail;
}

/** The impulse of a space. */
export function spaceImpulse(space: ReverbSpace, random: Random, rate: number): [Float32Array, Float32Array] {
  return space.kind === 'acoustic'
    ? roomImpulse(random, space.decay, rate)
    : impulseResponse(random, space.decay, rate);
}

/**
 * Decimates a mono send to REVERB_RATE: the mean of each 4 samples (a boxcar, nulls at 11.025 kHz and its
 * multiples) then a one-pole low-pass at 4 kHz. Cheaper than filtering at the full rate; what little aliasing
 * gets through ends up diffused in the tail.
 */
function decimate(send: Float32Array): Float32Array {
  const out = new Float32Array(Math.ceil(send.length / 4));
  for (let i = 0; i < out.length; i++) {
    const j = i * 4;
    out[i] = ((send[j] ?? 0) + (send[j + 1] ?? 0) + (send[j + 2] ?? 0) + (send[j + 3] ?? 0)) * 0.25;
  }
  lowPassInPlace(out, 4000, REVERB_RATE);
  return out;
}

/** The reverb's wet signal at REVERB_RATE, or null when the send is silent. */
export async function renderReverb(
  send: Float32Array,
  random: Random,
  space: ReverbSpace,
): Promise<[Float32Array, Float32Array] | null> {
  return reverbOf(reverbInput(send), random, space);
}

/**
 * A finished send as the reverb takes it: decimated to REVERB_RATE (a quarter of its memory), or null when
 * silent. renderReverb is reverbOf(reverbInput(send)); a send kept waiting for its reverb is kept like this.
 */
export function reverbInput(send: Float32Array): Float32Array | null {
  for (let i = 0; i < send.length; i += 64) if (send[i] !== 0) return decimate(send);
  return null;
}

/** The reverb's wet signal at REVERB_RATE of a send made ready by reverbInput (null: silent); the input is freed. */
export async function reverbOf(
  input: Float32Array | null,
  random: Random,
  space: ReverbSpace,
): Promise<[Float32Array, Float32Array] | null> {
  if (!input) return null;
  const context = new webAudio.OfflineAudioContext(2, input.length, REVERB_RATE);
  const source = context.createBufferSource();
  const inputBuffer = context.createBuffer(1, input.length, REVERB_RATE);
  inputBuffer.copyToChannel(input as Float32Array<ArrayBuffer>, 0);
  free(input);
  source.buffer = inputBuffer;
  const [left, right] = spaceImpulse(space, random, REVERB_RATE);
  const impulse = context.createBuffer(2, left.length, REVERB_RATE);
  impulse.copyToChannel(left as Float32Array<ArrayBuffer>, 0);
  impulse.copyToChannel(right as Float32Array<ArrayBuffer>, 1);
  const convolver = context.createConvolver();
  convolver.normalize = false;
  convolver.buffer = impulse;
  source.connect(convolver).connect(context.destination);
  source.start(0);
  const rendered = (await context.startRendering()) as unknown as AudioBuffer;
  return [copyChannel(rendered, 0), copyChannel(rendered, 1)];
}
