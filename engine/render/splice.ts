/**
 * Splices a newly rendered region into a source track's PCM so that everything outside the region is the source's
 * samples exactly (issue 16, items 4 and 5: extend and redo-a-section promise "sample for sample").
 *
 * Why it works on the source's *integer* PCM and not its float master: the float master only exists inside the
 * render worker that made the source; what users hold is the stored WAV. The source WAV's samples are turned back
 * into floats with `fromPcm`, chosen so that `encodeWav` at the same bit depth gives back the very same integers
 * (checked exhaustively for 16 and 24 bits in test/engine/splice.test.ts). Every output format of the new
 * generation is then encoded from the spliced master, so the WAV matches byte for byte and the lossy formats are
 * encoded from the same signal.
 *
 * The crossfades lie *inside* the region, so no sample outside it is touched. Their length (CROSSFADE_SECONDS) is
 * 50 ms, equal-power (sin/cos): long enough that a reverb or delay tail crossing the region's edge, which differs
 * between the two renders, is blended instead of cut (a cut is an audible click), and short enough to stay under
 * an eighth note even at 180 bpm (167 ms), so the first beat of the new material is not smeared.
 *
 * Loudness: the master limiter and loudness normalisation run over a whole render, so the new render can sit at a
 * slightly different level than the source. The new region is scaled by the RMS ratio of source to new render over
 * the frames they are meant to share (outside the region), so the region matches the source's level.
 */
import type { BitDepth } from '../encode/wav.ts';

export const CROSSFADE_SECONDS = 0.05;

export interface StereoPcm {
  left: Float32Array;
  right: Float32Array;
}

/** A frame range [start, end) of the output that holds new material; the rest is the source verbatim. */
export interface SpliceRegion {
  start: number;
  end: number;
}

/** Integer PCM sample → float that `to16`/`to24` round back to the same integer. */
export function fromPcm(value: number, bitDepth: BitDepth): number {
  return value / (bitDepth === 16 ? 32767 : 8388607);
}

/** The float master of a decoded WAV's integer channels, exact under re-encoding at the same depth. */
export function pcmToFloat(channels: [ArrayLike<number>, ArrayLike<number>], bitDepth: BitDepth): StereoPcm {
  const [l, r] = channels;
  const left = new Float32Array(l.length);
  const right = new Float32Array(r.length);
  for (let i = 0; i < l.length; i++) {
    left[i] = fromPcm(l[i] ?? 0, bitDepth);
    right[i] = fromPcm(r[i] ?? 0, bitDepth);
  }
  return { left, right };
}

/** RMS ratio source/rendered over the frames outside the region that both have; 1 when either is silent. */
export function levelMatch(source: StereoPcm, rendered: StereoPcm, region: SpliceRegion): number {
  const shared = Math.min(source.left.length, rendered.left.length);
  let s = 0;
  let n = 0;
  for (let i = 0; i < shared; i++) {
    if (i >= region.start && i < region.end) continue;
    s += (source.left[i] ?? 0) ** 2 + (source.right[i] ?? 0) ** 2;
    n += (rendered.left[i] ?? 0) ** 2 + (rendered.right[i] ?? 0) ** 2;
  }
  if (s === 0 || n === 0) return 1;
  return Math.sqrt(s / n);
}

/**
 * The output has `rendered`'s length. Frames outside `region` come from `source` (which must cover them); frames
 * inside come from `rendered` scaled by `gain`, with equal-power crossfades from and back to the source at the
 * region's edges where the source has samples (an extension's region runs to the end, so it has no closing fade).
 */
export function splice(
  source: StereoPcm,
  rendered: StereoPcm,
  region: SpliceRegion,
  sampleRate: number,
  gain = levelMatch(source, rendered, region),
): StereoPcm {
  const frames = rendered.left.length;
  if (rendered.right.length !== frames) throw new RangeError('The rendered channels differ in length');
  if (!(region.start >= 0 && region.start <= region.end && region.end <= frames)) {
    throw new RangeError(`The region ${region.start}–${region.end} is not inside the ${frames} rendered frames`);
  }
  const sourceFrames = source.left.length;
  if (region.start > sourceFrames || (region.end < frames && sourceFrames < frames)) {
    throw new RangeError('The source does not cover the frames outside the region');
  }
  const fade = Math.max(1, Math.round(CROSSFADE_SECONDS * sampleRate));
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  left.set(source.left.subarray(0, region.start));
  right.set(source.right.subarray(0, region.start));
  if (region.end < frames) {
    left.set(source.left.subarray(region.end, frames), region.end);
    right.set(source.right.subarray(region.end, frames), region.end);
  }
  const length = region.end - region.start;
  const inFade = region.start > 0 ? Math.min(fade, Math.floor(length / 2)) : 0;
  const outFade = region.end < frames ? Math.min(fade, Math.floor(length / 2)) : 0;
  for (let i = region.start; i < region.end; i++) {
    // w is the new material's share; equal power: sin² + cos² = 1 keeps the level through uncorrelated tails.
    let w = 1;
    const fromStart = i - region.start;
    const toEnd = region.end - 1 - i;
    if (fromStart < inFade) w = Math.min(w, (fromStart + 0.5) / inFade);
    if (toEnd < outFade) w = Math.min(w, (toEnd + 0.5) / outFade);
    const a = Math.sin((w * Math.PI) / 2);
    const b = Math.cos((w * Math.PI) / 2);
    const hasSource = i < sourceFrames;
    left[i] = a * gain * (rendered.left[i] ?? 0) + (hasSource ? b * (source.left[i] ?? 0) : 0);
    right[i] = a * gain * (rendered.right[i] ?? 0) + (hasSource ? b * (source.right[i] ?? 0) : 0);
  }
  return { left, right };
}

/** A section as GET /v1/generation/{id} reports it: start and end in seconds on the source's bar grid. */
export interface ReportedSection {
  start: number;
  end: number;
}

/**
 * The frames a redo of section `index` replaces: its reported start and end, as frames. A bad index is a
 * RangeError whose message a person can act on (the API maps it to 400).
 */
export function remixRegion(
  sections: ReportedSection[],
  index: number,
  sampleRate: number,
  frames: number,
): SpliceRegion {
  // A negative or too large index finds no section.
  const section = Number.isInteger(index) ? sections[index] : undefined;
  if (!section) {
    throw new RangeError(
      `section must be an index from 0 to ${sections.length - 1} into the source's sections, got: ${index}`,
    );
  }
  return { start: Math.round(section.start * sampleRate), end: Math.min(frames, Math.round(section.end * sampleRate)) };
}

/**
 * The frames an extension replaces: from the bar line where the source's last section (its ending) starts to the
 * end of the new, longer render. Everything before that bar line is the source verbatim; the new material and a
 * new ending follow it.
 */
export function extendRegion(sections: ReportedSection[], sampleRate: number, frames: number): SpliceRegion {
  const last = sections[sections.length - 1];
  if (!last) throw new RangeError('The source reports no sections, so there is no bar line to continue from');
  return { start: Math.round(last.start * sampleRate), end: frames };
}
