/**
 * Convolution reverb at a quarter of the sample rate. node-web-audio-api's ConvolverNode partitions the impulse
 * in 128-frame blocks, so its cost grows with impulse length × sample rate (a 3 s impulse at 44.1 kHz cost ~2.8 s
 * per minute of audio). A reverb tail carries little above 5 kHz, so the send is low-passed and decimated to
 * 11025 Hz, convolved there (16× cheaper) and played back through the main context's resampler.
 */
import type { Random } from '../random.ts';
import { webAudio } from './globals.ts';
import { SAMPLE_RATE } from './constants.ts';
import { lowPassInPlace } from './filters.ts';
import { copyChannel } from './toneRender.ts';

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
    for (let i = 0; i < length; i++) energy += channel[i]! * channel[i]!;
    const norm = energy > 0 ? 1 / Math.sqrt(energy) : 0;
    for (let i = 0; i < length; i++) channel[i]! *= norm;
  }
  return channels;
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
export async function renderReverb(send: Float32Array, random: Random, decaySeconds: number): Promise<[Float32Array, Float32Array] | null> {
  let any = false;
  for (let i = 0; i < send.length; i += 64) if (send[i] !== 0) { any = true; break; }
  if (!any) return null;
  const input = decimate(send);
  const context = new webAudio.OfflineAudioContext(2, input.length, REVERB_RATE);
  const source = context.createBufferSource();
  const inputBuffer = context.createBuffer(1, input.length, REVERB_RATE);
  inputBuffer.copyToChannel(input as Float32Array<ArrayBuffer>, 0);
  source.buffer = inputBuffer;
  const [left, right] = impulseResponse(random, decaySeconds, REVERB_RATE);
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
