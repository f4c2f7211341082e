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

export class StemSet {
  private readonly stems = new Map<Role, StemBuses>();

  constructor(readonly frames: number) {}

  /** The stem of a role, made empty on first use. */
  of(role: Role): StemBuses {
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

  /** The stems of these roles that exist. */
  some(roles: Iterable<Role>): StemBuses[] {
    return [...roles].flatMap((role) => this.stems.get(role) ?? []);
  }

  /** Every stem, in ORDER. */
  entries(): [Role, StemBuses][] {
    return ORDER.flatMap((role) => {
      const stem = this.stems.get(role);
      return stem ? [[role, stem] as [Role, StemBuses]] : [];
    });
  }

  /** Hands the stems over one at a time and forgets each, so its memory can go as soon as the caller is done. */
  *drain(): Generator<[Role, StemBuses]> {
    for (const entry of this.entries()) {
      this.stems.delete(entry[0]);
      yield entry;
    }
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
