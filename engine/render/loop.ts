/**
 * Held notes longer than their rendered sample: a settled stretch of the sample repeats, crossfaded so the jump
 * back is seamless. Shared by the synthesized patches (prerender.ts) and the sampled instruments (sampled/).
 */
import { SAMPLE_RATE } from './constants.ts';

/** A rendered note and, for sustaining sounds, the crossfaded loop that continues it after data ends. */
export interface RootSample {
  data: Float32Array;
  loop: Float32Array | null;
}

export interface LoopShape {
  /** Seconds into the sample where the loop starts (after the attack has settled). */
  start: number;
  /** Seconds the loop lasts, and the crossfade at its start. */
  seconds: number;
  fade: number;
}

/** Seconds of sample a looping note needs rendered at most. */
export function loopedLength(shape: LoopShape): number {
  return shape.start + shape.seconds + shape.fade;
}

/** Splits a rendered sample at the loop end and builds a loop whose start blends in what followed the loop end. */
export function withLoop(rendered: Float32Array, shape: LoopShape): RootSample {
  const start = Math.round(shape.start * SAMPLE_RATE);
  const end = start + Math.round(shape.seconds * SAMPLE_RATE);
  const fade = Math.round(shape.fade * SAMPLE_RATE);
  if (rendered.length < end + fade) return { data: rendered, loop: null };
  const loop = rendered.slice(start, end);
  for (let i = 0; i < fade; i++) {
    // Equal-power crossfade from the continuation (so the jump out of data[] is seamless) into the loop.
    const x = i / fade;
    loop[i] =
      (rendered[start + i] ?? 0) * Math.sin((x * Math.PI) / 2) + (rendered[end + i] ?? 0) * Math.cos((x * Math.PI) / 2);
  }
  return { data: rendered.subarray(0, end), loop };
}

/** A sample with its loop unrolled to at least `frames` frames, so the mixer's inner loop has no branches. */
export function unrolled(sample: RootSample, frames: number): Float32Array {
  const { data, loop } = sample;
  if (!loop || frames <= data.length) return data;
  const out = new Float32Array(frames);
  out.set(data, 0);
  for (let at = data.length; at < frames; at += loop.length)
    out.set(loop.subarray(0, Math.min(loop.length, frames - at)), at);
  return out;
}
