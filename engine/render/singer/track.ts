/**
 * The synthesis parameters over time: each phone's targets, with formants gliding across phone boundaries
 * (coarticulation), source amplitudes cross-fading quickly, and attacks/releases where a phrase starts or ends.
 */
import {
  AMPLITUDE_PARAMS,
  ASP,
  BYPASS,
  F1,
  FNZ,
  FORMANT_PARAMS,
  FRIC,
  GATE,
  PARAM_COUNT,
  PF1,
  SOURCE_PARAMS,
} from './phones.ts';
import type { Segment } from './plan.ts';

/** Formants glide over this long across a phone boundary; source amplitudes cross-fade faster. */
const FORMANT_GLIDE = 0.05;
/**
 * Next to a consonant, a vowel's formants move from (or towards) the consonant's over this long inside the vowel:
 * the transitions that tell /b/ from /d/ from /g/ and carry glides and liquids take 40–80 ms in speech. With only
 * FORMANT_GLIDE centred on the boundary they happened in a stop's closure and burst, where nothing is heard, and
 * the vowel started on its own formants.
 */
const VOWEL_ENTRY = 0.06;
const VOWEL_EXIT = 0.03;
const AMPLITUDE_FADE = 0.008;
/** How much breathier a vowel gets as its velocity falls from 1 to 0 (×1 at full voice, ×3 at none). */
const SOFT_BREATHINESS = 2;
/**
 * A sung vowel is not held at one level: it swells in over its first VOWEL_SWELL seconds and a long one grows a
 * little louder towards its middle and eases off before its end (HELD_SWELL: the gain at the top of the arch).
 */
const VOWEL_SWELL = 0.07;
const VOWEL_SWELL_FROM = 0.8;
const HELD_NOTE = 0.45;
const HELD_SWELL = 1.25;
/** Diphthongs hold their first target, then glide to the second over this part of the vowel. */
const DIPHTHONG_GLIDE = [0.45, 0.85] as const;

/** Attack and release of a segment when nothing sounds before or after it (phrase starts and ends). */
function attackOf(s: Segment): number {
  return s.kind === 'breath' ? 0.1 : s.kind === 'vowel' ? 0.012 : 0.01;
}
function releaseOf(s: Segment): number {
  return s.kind === 'breath' ? 0.08 : s.kind === 'vowel' ? 0.05 : 0.025;
}

/** Walks the segments in time and evaluates the smoothed parameter vector at any time. */
export class ParameterTrack {
  private index = 0;
  private readonly current = new Float64Array(PARAM_COUNT);
  private readonly neighbour = new Float64Array(PARAM_COUNT);

  constructor(private readonly segments: readonly Segment[]) {}

  /** Writes the parameters at `t` (non-decreasing between calls) into `out`; returns false in silence. */
  evaluate(t: number, out: Float64Array): boolean {
    const segs = this.segments;
    while ((segs[this.index]?.end ?? Infinity) <= t) this.index++;
    const s = segs[this.index];
    if (!s || s.start > t) {
      for (const p of SOURCE_PARAMS) out[p] = 0;
      // Between phrases the tract is open: the last sound rings out naturally.
      out[GATE] = 1;
      return false;
    }
    const cur = this.current;
    targetAt(s, t, cur);
    out.set(cur);
    const prev = segs[this.index - 1];
    const next = segs[this.index + 1];
    const prevJoins = prev !== undefined && s.start - prev.end < 1e-3;
    const nextJoins = next !== undefined && next.start - s.end < 1e-3;
    const length = s.end - s.start;
    const fromStart = t - s.start;
    const toEnd = s.end - t;
    if (prevJoins) {
      targetAt(prev, prev.end, this.neighbour);
      const entry = s.kind === 'vowel' && prev.kind === 'consonant';
      const width = entry ? Math.min(2 * VOWEL_ENTRY, length) : Math.min(FORMANT_GLIDE, length, prev.end - prev.start);
      this.blend(out, FORMANT_PARAMS, width, fromStart);
      this.blend(out, AMPLITUDE_PARAMS, Math.min(AMPLITUDE_FADE, length, prev.end - prev.start), fromStart);
      if (cur[FRIC] === 0 && (this.neighbour[FRIC] ?? 0) > 0) this.takeNoiseShape(out);
    } else {
      const ramp = Math.min(1, fromStart / attackOf(s));
      for (const p of SOURCE_PARAMS) out[p] = (out[p] ?? 0) * ramp;
    }
    if (nextJoins) {
      targetAt(next, next.start, this.neighbour);
      const exit = s.kind === 'vowel' && next.kind === 'consonant';
      const width = exit ? Math.min(2 * VOWEL_EXIT, length) : Math.min(FORMANT_GLIDE, length, next.end - next.start);
      this.blend(out, FORMANT_PARAMS, width, toEnd);
      this.blend(out, AMPLITUDE_PARAMS, Math.min(AMPLITUDE_FADE, length, next.end - next.start), toEnd);
      if (cur[FRIC] === 0 && (this.neighbour[FRIC] ?? 0) > 0) this.takeNoiseShape(out);
    } else {
      const ramp = Math.min(1, toEnd / releaseOf(s));
      for (const p of SOURCE_PARAMS) out[p] = (out[p] ?? 0) * ramp;
    }
    return true;
  }

  /** A vowel next to a fricative keeps the fricative's noise shape while the noise fades. */
  private takeNoiseShape(out: Float64Array): void {
    for (let p = PF1; p <= BYPASS; p++) out[p] = this.neighbour[p] ?? 0;
  }

  /**
   * Linear cross-fade across a boundary, `width` wide and centred on it: half-way at the boundary, all this
   * segment's own value `width / 2` inside it. `distance` is how far inside we are.
   */
  private blend(out: Float64Array, params: readonly number[], width: number, distance: number): void {
    // The two windows of a segment never overlap (each is at most its length), so `current` is the own value.
    if (distance >= width / 2) return;
    const own = 0.5 + distance / width;
    const cur = this.current;
    const other = this.neighbour;
    for (const p of params) out[p] = (other[p] ?? 0) + ((cur[p] ?? 0) - (other[p] ?? 0)) * own;
  }
}

/** A segment's own target at `t`: diphthongs and aspirations glide from `from` to `to`; amplitudes scaled by velocity. */
function targetAt(s: Segment, t: number, out: Float64Array): void {
  out.set(s.from);
  if (s.to) {
    const progress = (t - s.start) / Math.max(1e-6, s.end - s.start);
    const [from, to] = s.glide ?? DIPHTHONG_GLIDE;
    const x = Math.min(1, Math.max(0, (progress - from) / (to - from)));
    for (let p = F1; p < FNZ; p++) out[p] = (s.from[p] ?? 0) + ((s.to[p] ?? 0) - (s.from[p] ?? 0)) * x;
  }
  let level = 0.25 + 0.75 * s.velocity;
  if (s.kind === 'vowel') level *= vowelArch(t - s.start, s.end - s.start);
  for (const p of SOURCE_PARAMS) out[p] = (out[p] ?? 0) * level;
  // A soft voice is a breathier one: less pressure, a glottis that does not close as firmly.
  if (s.kind === 'vowel') out[ASP] = (out[ASP] ?? 0) * (1 + SOFT_BREATHINESS * (1 - s.velocity));
}

/** The level of a vowel `since` seconds into its `length`: a quick swell in, and on held notes an arch. */
function vowelArch(since: number, length: number): number {
  const x = Math.min(1, Math.max(0, since / VOWEL_SWELL));
  let gain = VOWEL_SWELL_FROM + (1 - VOWEL_SWELL_FROM) * x * (2 - x);
  if (length > HELD_NOTE) gain *= 1 + (HELD_SWELL - 1) * Math.sin(Math.PI * Math.min(1, since / length)) ** 2;
  return gain;
}
