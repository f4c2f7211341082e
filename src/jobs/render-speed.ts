/**
 * How long a render takes, learned from the renders so far: wall seconds per second of audio, as an
 * exponential moving average, so estimates follow the machine's real speed (and its current load).
 */
export class RenderSpeed {
  #wallPerAudioSecond: number;

  /** The prior is the first guess; each finished render corrects it. */
  constructor(
    prior: number,
    private readonly weight = 0.3,
  ) {
    this.#wallPerAudioSecond = prior;
  }

  get wallPerAudioSecond(): number {
    return this.#wallPerAudioSecond;
  }

  record(wallSeconds: number, audioSeconds: number): void {
    if (!(wallSeconds > 0) || !(audioSeconds > 0)) return;
    const sample = wallSeconds / audioSeconds;
    this.#wallPerAudioSecond += this.weight * (sample - this.#wallPerAudioSecond);
  }

  /** Expected wall seconds to render a track of this many seconds. */
  estimate(audioSeconds: number): number {
    return audioSeconds * this.#wallPerAudioSecond;
  }
}
