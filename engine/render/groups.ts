/**
 * Per-group EQ and compression of the dry mix, as a mixing engineer treats group submixes before the mix bus: drums get
 * a glue compressor, the bass a compressor and a low-pass, the harmony (chords, pads, arpeggios) a high-pass
 * that leaves the low end to the bass and a gentle low-mid cut against mud, the lead a high-pass and some
 * presence.
 *
 * The parts are mixed one group at a time (mixScore sorts them) into one scratch stereo submix that is reused for
 * every group: when the group changes, the finished submix is processed and added to the dry buses. The memory
 * cost is two channels whatever the arrangement. Textures (and anything else without a group) go straight to
 * the dry buses. Compressor thresholds are set from the submix's own level and its loudness is restored after
 * compression, so the role balance of mix.ts holds.
 */
import type { Role, Score } from '../types.ts';
import { at } from '../checked.ts';
import { SAMPLE_RATE } from './constants.ts';
import { applyGains, biquad, biquadStereo, compress } from './bus.ts';
import { FLUSH_MASK, flushed, peaking as peakingCoefficients } from './filters.ts';
import type { StemBuses, StemSet } from './stems.ts';
import { free } from './free.ts';

export type MixGroup = 'drums' | 'bass' | 'harmony' | 'lead';

/** The group of each role, in the order the groups are mixed; null: straight into the dry buses. */
const GROUP_OF: Record<Role, MixGroup | null> = {
  drums: 'drums',
  bass: 'bass',
  chords: 'harmony',
  pad: 'harmony',
  arp: 'harmony',
  lead: 'lead',
  texture: null,
  vocal: null,
};
const ORDER: readonly (MixGroup | null)[] = ['drums', 'bass', 'harmony', 'lead', null];
const ROLES_OF = Object.fromEntries(
  ORDER.flatMap((group) =>
    group === null ? [] : [[group, (Object.keys(GROUP_OF) as Role[]).filter((role) => GROUP_OF[role] === group)]],
  ),
) as Record<MixGroup, Role[]>;

export interface Stereo {
  left: Float32Array;
  right: Float32Array;
}

type Coefficients = ReturnType<typeof biquad>;

/** RBJ cookbook peaking EQ: `gainDb` at `frequency`, bandwidth set by `q`. */
export function peaking(frequency: number, q: number, gainDb: number): Coefficients {
  const c = peakingCoefficients(frequency, q, gainDb, SAMPLE_RATE);
  return { b0: at(c, 0), b1: at(c, 1), b2: at(c, 2), a1: at(c, 3), a2: at(c, 4) };
}

/** A 4th-order Butterworth high-pass as two biquads (24 dB per octave). */
const steepHighPass = (frequency: number): Coefficients[] => [
  biquad('highpass', frequency, 0.5412),
  biquad('highpass', frequency, 1.3066),
];

interface Chain {
  filters: Coefficients[];
  /** Compressor threshold relative to the submix's gated RMS (dB), ratio and times. */
  compressor?: { overLevelDb: number; ratio: number; attack: number; release: number };
}

/** About 1/√2 (a Butterworth response), at the value the mix was tuned with. */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: Math.SQRT1_2 would change the bits of every render.
const BUTTERWORTH_Q = 0.707;

/** What each group gets. The harmony is high-passed hard only when a bass part holds the low end. */
export function groupChain(group: MixGroup, hasBass: boolean): Chain {
  switch (group) {
    case 'drums':
      // Glue: slow enough to let each hit's attack through, pulling the kit together by 2–3 dB on the peaks.
      return { filters: [], compressor: { overLevelDb: 6, ratio: 2, attack: 0.01, release: 0.15 } };
    case 'bass':
      // Even notes, and nothing above what a bass amp would carry.
      return {
        filters: [biquad('lowpass', 6000, BUTTERWORTH_Q)],
        compressor: { overLevelDb: 2, ratio: 3, attack: 0.006, release: 0.1 },
      };
    case 'harmony':
      return {
        filters: [...(hasBass ? steepHighPass(100) : [biquad('highpass', 35, BUTTERWORTH_Q)]), peaking(300, 1, -2.5)],
      };
    case 'lead':
      return { filters: [biquad('highpass', 120, BUTTERWORTH_Q), peaking(3000, 0.9, 2)] };
  }
}

/**
 * Two biquads in series on both channels in one loop: the four filter states are independent chains, so the CPU
 * overlaps them, and each sample is read and written once. About twice as fast as four filterInPlace passes.
 * With `into`, the output is added to `into` instead and the signal left silent (see filterStereo).
 */
function cascadeStereo(
  left: Float32Array,
  right: Float32Array,
  first: Coefficients,
  second: Coefficients,
  into: Stereo | null,
): void {
  const { b0: p0, b1: p1, b2: p2, a1: pa1, a2: pa2 } = first;
  const { b0: q0, b1: q1, b2: q2, a1: qa1, a2: qa2 } = second;
  let lx1 = 0,
    lx2 = 0,
    ly1 = 0,
    ly2 = 0,
    lz1 = 0,
    lz2 = 0;
  let rx1 = 0,
    rx2 = 0,
    ry1 = 0,
    ry2 = 0,
    rz1 = 0,
    rz2 = 0;
  for (let i = 0; i < left.length; i++) {
    const lx = left[i] ?? 0,
      rx = right[i] ?? 0;
    const ly = p0 * lx + p1 * lx1 + p2 * lx2 - pa1 * ly1 - pa2 * ly2;
    const ry = p0 * rx + p1 * rx1 + p2 * rx2 - pa1 * ry1 - pa2 * ry2;
    const lz = q0 * ly + q1 * ly1 + q2 * ly2 - qa1 * lz1 - qa2 * lz2;
    const rz = q0 * ry + q1 * ry1 + q2 * ry2 - qa1 * rz1 - qa2 * rz2;
    lx2 = lx1;
    lx1 = lx;
    ly2 = ly1;
    ly1 = ly;
    lz2 = lz1;
    lz1 = lz;
    rx2 = rx1;
    rx1 = rx;
    ry2 = ry1;
    ry1 = ry;
    rz2 = rz1;
    rz1 = rz;
    if (into) {
      // Rounded to a float first, as storing the output and reading it back would.
      into.left[i] = (into.left[i] ?? 0) + Math.fround(lz);
      into.right[i] = (into.right[i] ?? 0) + Math.fround(rz);
      left[i] = 0;
      right[i] = 0;
    } else {
      left[i] = lz;
      right[i] = rz;
    }
    if ((i & FLUSH_MASK) === FLUSH_MASK) {
      ly1 = flushed(ly1);
      ly2 = flushed(ly2);
      lz1 = flushed(lz1);
      lz2 = flushed(lz2);
      ry1 = flushed(ry1);
      ry2 = flushed(ry2);
      rz1 = flushed(rz1);
      rz2 = flushed(rz2);
    }
  }
}

/**
 * Filters in series on both channels, two per pass. With `into` (and at least one filter), the last pass adds the
 * filtered signal to `into` and leaves the signal silent: a submix is filtered, summed and emptied in one pass, the
 * same to the bit as filtering it, then adding and clearing it.
 */
export function filterStereo(signal: Stereo, filters: readonly Coefficients[], into: Stereo | null = null): void {
  for (let k = 0; k < filters.length; k += 2) {
    const first = filters[k];
    const second = filters[k + 1];
    const last = k + 2 >= filters.length ? into : null;
    if (first && second) cascadeStereo(signal.left, signal.right, first, second, last);
    else if (first) biquadStereo(signal.left, signal.right, first, 1, last);
  }
}

/**
 * Levels are estimated from every STRIDE-th frame: a level for a compressor's threshold and make-up gain needs no
 * more, and it makes these passes four times cheaper.
 */
const STRIDE = 4;

/** Mean power of the submix's 4096-frame blocks within 40 dB of the loudest (dB), and its (strided) energy. */
function gatedLevel(submix: Stereo): { levelDb: number; energy: number } {
  const block = 4096;
  const { left, right } = submix;
  const powers: number[] = [];
  let energy = 0;
  for (let start = 0; start < left.length; start += block) {
    const end = Math.min(left.length, start + block);
    let sum = 0;
    for (let i = start; i < end; i += STRIDE)
      sum += (left[i] ?? 0) * (left[i] ?? 0) + (right[i] ?? 0) * (right[i] ?? 0);
    powers.push((sum * STRIDE) / (2 * (end - start)));
    energy += sum;
  }
  const gate = powers.reduce((max, power) => Math.max(max, power), 0) * 1e-4;
  const loud = powers.filter((power) => power > gate);
  const mean = loud.reduce((sum, power) => sum + power, 0) / Math.max(1, loud.length);
  return { levelDb: 10 * Math.log10(mean), energy };
}

function energyOf(submix: Stereo): number {
  const { left, right } = submix;
  let sum = 0;
  for (let i = 0; i < left.length; i += STRIDE)
    sum += (left[i] ?? 0) * (left[i] ?? 0) + (right[i] ?? 0) * (right[i] ?? 0);
  return sum;
}

/**
 * Runs a group's filters and compressor on its submix in place; returns the make-up gain the submix is to be summed
 * with (after compression, so it leaves as loud as it came; 1 without a compressor). `gains`, when given,
 * receives the compressor's gain per frame; the return says whether the compressor ran. With `into`, a group
 * without a compressor is added to `into` by its last filter pass and its submix emptied (`summed` says so).
 */
export function processGroup(
  group: MixGroup,
  submix: Stereo,
  hasBass: boolean,
  gains: Float32Array | null = null,
  into: Stereo | null = null,
): { makeUp: number; compressed: boolean; summed: boolean } {
  const chain = groupChain(group, hasBass);
  const fuse = into !== null && !chain.compressor && chain.filters.length > 0;
  filterStereo(submix, chain.filters, fuse ? into : null);
  if (!chain.compressor) return { makeUp: 1, compressed: false, summed: fuse };
  const { levelDb, energy } = gatedLevel(submix);
  if (!(energy > 0)) return { makeUp: 1, compressed: false, summed: false };
  const { overLevelDb, ...times } = chain.compressor;
  compress(submix.left, submix.right, { thresholdDb: levelDb + overLevelDb, kneeDb: 6, ...times }, gains);
  const after = energyOf(submix);
  return { makeUp: after > 0 ? Math.sqrt(energy / after) : 1, compressed: true, summed: false };
}

/** A role's share of a group, given the group's treatment: the same filters, the group's compressor gains and make-up. */
function followGroup(
  group: MixGroup,
  member: Stereo,
  hasBass: boolean,
  gains: Float32Array | null,
  makeUp: number,
): void {
  filterStereo(member, groupChain(group, hasBass).filters);
  if (gains) applyGains(member.left, member.right, gains);
  if (makeUp === 1) return;
  for (let i = 0; i < member.left.length; i++) {
    member.left[i] = (member.left[i] ?? 0) * makeUp;
    member.right[i] = (member.right[i] ?? 0) * makeUp;
  }
}

/** Sort order of parts for the mixer: group by group, textures last. */
export function groupRank(role: Role): number {
  return ORDER.indexOf(GROUP_OF[role]);
}

/**
 * Routes the mixer's output: `target.dry` is where notes are written. Entering a part's role points it at the
 * scratch submix of the role's group (or at the dry buses), processing and emptying it when the group changes.
 */
export class GroupRouter {
  private current: MixGroup | null = null;
  private submix: Stereo | null = null;
  private readonly hasBass: boolean;

  /**
   * `stems`: each role's stem, given its group's treatment whenever the group is; `onFinished` is then given the
   * group's stems, which no later part writes to (the parts come group by group).
   */
  constructor(
    private readonly target: Stereo & { dry: Stereo },
    score: Score,
    private readonly stems: StemSet | null = null,
    private readonly onFinished: (stems: StemBuses[]) => void = () => undefined,
  ) {
    this.hasBass = score.parts.some((part) => part.role === 'bass' && part.notes.length > 0);
  }

  enter(role: Role): void {
    const group = GROUP_OF[role];
    if (group === this.current) return;
    this.flush();
    this.current = group;
    if (group === null) {
      this.target.dry = { left: this.target.left, right: this.target.right };
      return;
    }
    const frames = this.target.left.length;
    this.submix ??= { left: new Float32Array(frames), right: new Float32Array(frames) };
    this.target.dry = this.submix;
  }

  /** Processes the group being mixed and adds it to the dry buses; call once after the last part. */
  finish(): void {
    this.flush();
    this.current = null;
    this.target.dry = { left: this.target.left, right: this.target.right };
    // The scratch submix is not needed past the last group: two full-length channels freed now (free.ts).
    if (this.submix) free(this.submix.left, this.submix.right);
    this.submix = null;
  }

  private flush(): void {
    const submix = this.submix;
    if (this.current === null || !submix) return;
    const group = this.current;
    const members = this.stems?.some(ROLES_OF[group]) ?? [];
    const gains = members.length > 0 ? new Float32Array(submix.left.length) : null;
    // Without stems to follow it, a group without a compressor is summed by its last filter pass.
    const into = members.length === 0 ? this.target : null;
    const { makeUp: gain, compressed, summed } = processGroup(group, submix, this.hasBass, gains, into);
    for (const member of members) followGroup(group, member, this.hasBass, compressed ? gains : null, gain);
    free(gains);
    this.onFinished(members);
    if (summed) return;
    const { left, right } = this.target;
    // Summed and emptied for the next group in one pass.
    const { left: submixLeft, right: submixRight } = submix;
    for (let i = 0; i < left.length; i++) {
      left[i] = (left[i] ?? 0) + (submixLeft[i] ?? 0) * gain;
      right[i] = (right[i] ?? 0) + (submixRight[i] ?? 0) * gain;
      submixLeft[i] = 0;
      submixRight[i] = 0;
    }
  }
}
