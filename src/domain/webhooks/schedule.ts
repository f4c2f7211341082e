/** When failed deliveries are tried again. */

/**
 * Waits before the 2nd, 3rd, … attempt: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h.
 * Eleven attempts over about 34 hours, so a receiver that is down for a whole day still gets the event.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5, 30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200, 43_200].map(
  (s) => s * 1000,
);

/** ±20 %: receivers that came back up are not hit by every retry at the same instant. */
export const RETRY_JITTER = 0.2;

/** The wait after the n-th failed attempt of a round (n from 1), or null when the round is over. */
export function retryDelay(
  failedAttempts: number,
  schedule: readonly number[],
  jitter: number,
  random: () => number = Math.random,
): number | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + jitter * (2 * random() - 1)));
}
