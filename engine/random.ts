/**
 * Seeded randomness. Every decision domain ("form", "harmony", "melody", "drums", ...) gets its own stream
 * derived from the request seed, so changing how the melody uses randomness never changes the drums,
 * and the same seed always gives the same track.
 */

/** FNV-1a 32-bit hash of a string: stable across platforms and Node versions. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** Roughly normal (sum of uniforms), mean 0, standard deviation ~1. */
  gaussian(): number;
  /** A child stream for a sub-domain ("melody/chorus"). */
  fork(domain: string): Random;
}

/** mulberry32: small, fast and good enough for musical choices. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stream for one decision domain of one request. */
export function createRandom(seed: number, domain: string): Random {
  const next = mulberry32(hashString(`${seed}:${domain}`));
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    range: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('Cannot pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (items, weights) => {
      const total = weights.reduce((sum, w) => sum + Math.max(0, w), 0);
      let r = next() * total;
      for (let i = 0; i < items.length; i++) {
        r -= Math.max(0, weights[i] ?? 0);
        if (r < 0) return items[i] as (typeof items)[number];
      }
      return items[items.length - 1] as (typeof items)[number];
    },
    gaussian: () => (next() + next() + next() + next() - 2) * Math.sqrt(3),
    fork: (sub) => createRandom(seed, `${domain}/${sub}`),
  };
  return random;
}
