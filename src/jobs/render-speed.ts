/**
 * How long a render takes: a fixed cost per track (interpreting, composing, rendering each patch once, encoding)
 * plus a cost per second of audio, learned from the renders so far as an exponential moving average, so
 * estimates follow the machine's real speed (and its current load).
 */
export interface SpeedModel {
  /** Wall seconds per track whatever its length. */
  overheadSeconds: number;
  /** Wall seconds per second of audio, on top of the overhead. */
  perAudioSecond: number;
}

/**
 * Before any render on this data dir. Measured on one thread of a loaded 2-core machine (load average 7):
 * 30 s tracks took 3.9 s cold, 60 s 2.4–4.3 s, 180 s 5.9 s instrumental and 13.9 s sung, so every
 * first estimate is within 2× of those.
 */
export const DEFAULT_SPEED: SpeedModel = { overheadSeconds: 1.5, perAudioSecond: 0.05 };

/**
 * Seconds left for a running render expected to take `expectedSeconds`, `elapsedSeconds` in, `progress` (0–1) done.
 * Progress is not linear in time (the engine's stages differ in cost), so extrapolating it swings wildly; the
 * speed estimate minus the time spent is steadier, with a floor from the progress so a render running late never
 * shows as done.
 */
export function timeLeft(expectedSeconds: number, elapsedSeconds: number, progress: number): number {
  return Math.max(expectedSeconds - elapsedSeconds, (1 - progress) * expectedSeconds * 0.2);
}

export class RenderSpeed {
  readonly overheadSeconds: number;
  #perAudioSecond: number;
  #learned: boolean;

  /** `learned`: the per-second cost was measured before (a restart); otherwise the first render replaces it. */
  constructor(
    model: SpeedModel = DEFAULT_SPEED,
    learned = false,
    private readonly weight = 0.3,
  ) {
    this.overheadSeconds = model.overheadSeconds;
    this.#perAudioSecond = model.perAudioSecond;
    this.#learned = learned;
  }

  get perAudioSecond(): number {
    return this.#perAudioSecond;
  }

  record(wallSeconds: number, audioSeconds: number): void {
    if (!(wallSeconds > 0) || !(audioSeconds > 0)) return;
    // A render faster than the overhead alone still says the per-second cost is small, never negative.
    const sample = Math.max(0.001, (wallSeconds - this.overheadSeconds) / audioSeconds);
    this.#perAudioSecond = this.#learned
      ? this.#perAudioSecond + this.weight * (sample - this.#perAudioSecond)
      : sample;
    this.#learned = true;
  }

  /** Expected wall seconds to render a track of this many seconds. */
  estimate(audioSeconds: number): number {
    return this.overheadSeconds + audioSeconds * this.#perAudioSecond;
  }
}
