/**
 * Waiting for a generation the way docs/api.md tells clients to: GET /v1/generation/:id?wait=N, which answers
 * as soon as the status changes. One request per change (or per N seconds), so a test that waits minutes for a
 * render spends a handful of its account's 60 requests a minute, however loaded the machine is.
 */
import type { Json } from './json.ts';

/** Finished, one way or the other: completed, failed or cancelled. */
export const settled = (generation: Json): boolean => ['completed', 'failed', 'cancelled'].includes(generation.status);

/**
 * Long-polls the generation until `until` holds (by default until it has settled) and returns it. A predicate
 * on something other than the status (started_at, progress) is checked at least every `waitSeconds`.
 */
export async function awaitGeneration(
  base: string,
  headers: Record<string, string>,
  id: string,
  options: { until?: (generation: Json) => boolean; timeoutMs?: number; waitSeconds?: number; what?: string } = {},
): Promise<Json> {
  const { until = settled, timeoutMs = 180_000, waitSeconds = 20, what = 'the render to settle' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/v1/generation/${id}?wait=${waitSeconds}`, { headers });
    const generation = (await res.json()) as Json;
    if (res.status !== 200)
      throw new Error(`GET /v1/generation/${id} answered ${res.status}: ${JSON.stringify(generation)}`);
    if (until(generation)) return generation;
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; last seen: ${JSON.stringify(generation)}`);
  }
}

/** Long-polls until the generation settles and returns it if it completed; throws with its error otherwise. */
export async function awaitCompleted(
  base: string,
  headers: Record<string, string>,
  id: string,
  timeoutMs = 180_000,
): Promise<Json> {
  const generation = await awaitGeneration(base, headers, id, { timeoutMs, what: 'the render to complete' });
  if (generation.status !== 'completed')
    throw new Error(`The render ended ${generation.status}: ${JSON.stringify(generation)}`);
  return generation;
}
