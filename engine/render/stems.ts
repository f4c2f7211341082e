/**
 * Stems: one stereo signal per role (drums, bass, chords, pad, arp, lead, texture, vocal), kept beside the mix
 * while it is made, each with its own reverb and delay sends. Every linear step of the mix (placing notes, the
 * groups' filters, ducking, the returns, the bus filters) is done to each stem as it is to the mix; every
 * non-linear one (a group's compressor, the bus compressor, the limiter) runs on the mix alone and its per-frame
 * gain is then applied to each stem. So the stems add up to the mix, to float rounding.
 *
 * The mix itself is made exactly as without stems (stems only add writes), so asking for stems never changes it.
 */
import type { Role } from '../types.ts';
import { free } from './free.ts';
import { reverbInput } from './reverb.ts';
import { Spill, type Spilled } from './spill.ts';

/** A stem's signal while it is mixed: stereo dry plus mono sends, like the mix buses. */
export interface StemBuses {
  left: Float32Array;
  right: Float32Array;
  reverb: Float32Array;
  /** Made on the first write: most roles send nothing to the delay. */
  delay: Float32Array | null;
  /**
   * Set once the stem is finished and waits for its reverb: the reverb send decimated (reverb.ts reverbInput, a
   * quarter of the memory; null when silent), `reverb` then freed.
   */
  reverbInput?: Float32Array | null;
}

/** Stems in the order they are listed and written. */
const ORDER: readonly Role[] = ['drums', 'bass', 'chords', 'pad', 'arp', 'lead', 'vocal', 'texture'];

/** A finished stem waiting on disk (spill.ts), with the steps still to be done to its channels when read back. */
interface SpilledStem {
  left: Spilled;
  right: Spilled;
  delay: Spilled | null;
  reverbInput: Float32Array | null;
  pending: ((channel: Float32Array) => void)[];
}

/**
 * The stems of one render. A stem is written to while its group is mixed; once finished (nothing writes to it
 * again) it waits on disk until the master is done and its own turn comes, so a render holds the stems being
 * mixed, not every one (issue 29). Call close() when the render ends.
 */
export class StemSet {
  private readonly stems = new Map<Role, StemBuses>();
  private readonly spilled = new Map<Role, SpilledStem>();
  private readonly spill = new Spill();

  constructor(readonly frames: number) {}

  /** The stem of a role, made empty on first use. A finished stem is not written to again. */
  of(role: Role): StemBuses {
    if (this.spilled.has(role)) throw new Error(`the ${role} stem is finished`);
    let stem = this.stems.get(role);
    if (!stem) {
      const frames = this.frames;
      stem = {
        left: new Float32Array(frames),
        right: new Float32Array(frames),
        reverb: new Float32Array(frames),
        delay: null,
      };
      this.stems.set(role, stem);
    }
    return stem;
  }

  /** The stems of these roles that are being mixed. */
  some(roles: Iterable<Role>): StemBuses[] {
    return [...roles].flatMap((role) => this.stems.get(role) ?? []);
  }

  /** How many stems there are, mixed or finished. */
  get size(): number {
    return this.stems.size + this.spilled.size;
  }

  /**
   * These stems are finished: nothing writes to them again. Their reverb sends wait decimated and their channels
   * on disk.
   */
  finish(finished: readonly StemBuses[]): void {
    for (const [role, stem] of this.stems) {
      if (!finished.includes(stem)) continue;
      readyReverb(stem);
      this.stems.delete(role);
      this.spilled.set(role, {
        left: this.spill.put(stem.left),
        right: this.spill.put(stem.right),
        delay: stem.delay ? this.spill.put(stem.delay) : null,
        reverbInput: stem.reverbInput ?? null,
        pending: [],
      });
    }
  }

  /** Every stem so far is finished. */
  finishAll(): void {
    this.finish([...this.stems.values()]);
  }

  /**
   * A linear step for the dry channels of every stem so far (the ducking under the voice): done now to a stem
   * being mixed, and to a finished one as it is read back. The same arithmetic either way, so the same floats.
   */
  eachChannel(step: (channel: Float32Array) => void): void {
    for (const stem of this.stems.values()) {
      step(stem.left);
      step(stem.right);
    }
    for (const stem of this.spilled.values()) stem.pending.push(step);
  }

  /**
   * Hands every stem over, in ORDER, one at a time (a finished one read back), and forgets each, so its memory
   * can go as soon as the caller is done. Every stem handed over is finished.
   */
  *drain(): Generator<[Role, StemBuses]> {
    for (const role of ORDER) {
      const mixed = this.stems.get(role);
      if (mixed) this.finish([mixed]);
      const stem = this.spilled.get(role);
      if (!stem) continue;
      this.spilled.delete(role);
      const left = this.spill.take(stem.left);
      const right = this.spill.take(stem.right);
      for (const step of stem.pending) {
        step(left);
        step(right);
      }
      const delay = stem.delay ? this.spill.take(stem.delay) : null;
      yield [role, { left, right, reverb: new Float32Array(0), delay, reverbInput: stem.reverbInput }];
    }
  }

  /** Removes what is left on disk. */
  close(): void {
    this.spill.close();
  }
}

/**
 * A finished stem's reverb send as the reverb will take it (reverb.ts reverbInput: decimated, a quarter of the
 * memory), the full-rate send freed. Nothing may write to the stem's sends after.
 */
export function readyReverb(stem: StemBuses): void {
  if (stem.reverbInput !== undefined) return;
  stem.reverbInput = reverbInput(stem.reverb);
  free(stem.reverb);
}

/** The stem's delay send, made on the first write. */
export function delaySendOf(stem: StemBuses): Float32Array {
  stem.delay ??= new Float32Array(stem.left.length);
  return stem.delay;
}
