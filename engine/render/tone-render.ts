/**
 * Renders a Tone.js graph offline on a fresh node-web-audio-api context. Tone keeps one module-global context,
 * so this sets it for the duration of one render and restores the previous one in `finally`; renders in one
 * thread are queued, never overlapped (concurrency comes from worker threads).
 *
 * `build` receives one destination per channel: independent sources rendered side by side in one context
 * (rather than one after another) avoid paying for the finished nodes of earlier notes, which
 * node-web-audio-api keeps processing until they are garbage-collected.
 */
import type { ToneAudioNode } from 'tone';
import { setupWebAudioGlobals, webAudio, type ToneLib } from './globals.ts';
import { SAMPLE_RATE } from './constants.ts';

/**
 * Copies a channel out of a rendered node-web-audio-api buffer. getChannelData() views memory the native side
 * owns; holding such a view across later renders gave NaN-filled garbage once the buffer was collected.
 */
export function copyChannel(buffer: AudioBuffer, channel: number): Float32Array {
  const out = new Float32Array(buffer.length);
  buffer.copyFromChannel(out, channel);
  return out;
}

/** The index of the last non-zero coefficient of a periodic wave, at least 1 (the Web Audio minimum length is 2). */
export function lastPartial(real: Float32Array, imag: Float32Array): number {
  for (let n = Math.min(real.length, imag.length) - 1; n > 1; n--) {
    if (real[n] !== 0 || imag[n] !== 0) return n;
  }
  return 1;
}

/**
 * Makes `context.createPeriodicWave` drop the trailing zero coefficients. Tone passes 2048 coefficients for every
 * wave, even a 'sawtooth32' that has 33, and node-web-audio-api sums every coefficient into each of the table's
 * 2048 samples: about 0.16 s of CPU a wave, 2.1 s for the twelve of a fresh worker's first render (Tone caches
 * them per process after that). A zero coefficient adds nothing to the table, so the waves are byte-identical
 * (test/engine/periodic-wave.test.ts renders both).
 */
export function trimPeriodicWaves(context: InstanceType<typeof webAudio.OfflineAudioContext>): void {
  const create = context.createPeriodicWave;
  context.createPeriodicWave = function (this: typeof context, real, imag, constraints) {
    if (!(real instanceof Float32Array && imag instanceof Float32Array))
      return create.call(this, real, imag, constraints);
    const length = lastPartial(real, imag) + 1;
    return create.call(this, real.slice(0, length), imag.slice(0, length), constraints);
  };
}

/** The tail of the queue of Tone renders in this thread: each waits for the previous one to finish. */
let queue: Promise<unknown> = Promise.resolve();

export function renderWithTone(
  seconds: number,
  channels: number,
  build: (Tone: ToneLib, outputs: ToneAudioNode[]) => void,
): Promise<Float32Array[]> {
  // Callers that overlap (two renders in one thread, concurrent tests) are serialised here, because Tone's
  // global context may only point at one offline context at a time.
  const result = queue.then(() => renderNow(seconds, channels, build));
  queue = result.catch(() => undefined);
  return result;
}

async function renderNow(
  seconds: number,
  channels: number,
  build: (Tone: ToneLib, outputs: ToneAudioNode[]) => void,
): Promise<Float32Array[]> {
  const Tone = await setupWebAudioGlobals();
  const frames = Math.max(1, Math.ceil(seconds * SAMPLE_RATE));
  const raw = new webAudio.OfflineAudioContext(channels, frames, SAMPLE_RATE);
  trimPeriodicWaves(raw);
  const context = new Tone.OfflineContext(raw as unknown as OfflineAudioContext);
  const previous = Tone.getContext();
  Tone.setContext(context);
  try {
    const merger = raw.createChannelMerger(channels);
    merger.connect(raw.destination);
    const outputs = Array.from({ length: channels }, (_, channel) => {
      const output = new Tone.Gain(1);
      output.output.connect(merger as unknown as AudioNode, 0, channel);
      return output;
    });
    build(Tone, outputs);
    const rendered = (await context.render(false)).get() as AudioBuffer;
    return Array.from({ length: channels }, (_, channel) => copyChannel(rendered, channel));
  } finally {
    Tone.setContext(previous);
  }
}
