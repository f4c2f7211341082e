/**
 * `variations` of POST /v1/generate: 1–4 generations from one request, the same spec with different seeds.
 */
import { LIMITS } from './generate-request.ts';

export const MAX_VARIATIONS = 4;

/**
 * The seed of variation `i`: the request's seed for the first, then steps of a large prime apart (mod the seed
 * range), so the seeds differ and a request with an explicit seed gives the same batch every time.
 */
export function variationSeed(seed: number, i: number): number {
  return (seed + i * 1_000_003) % (LIMITS.maxSeed + 1);
}
