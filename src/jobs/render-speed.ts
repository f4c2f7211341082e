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
 * A render thread's cost per second of audio when it has a core to itself (a plain render, this engine, the
 * 2-core machine of bench:estimates). Measured under load and divided by the load then (see loadedSpeed): 30 s
 * plain renders at a load average of 24–26 took 0.73–0.85 s per second of audio, 0.057–0.067 unloaded; the
 * speed learned at load 28 in bench:estimates was 0.58, 0.040 unloaded.
 */
export const UNLOADED_PER_AUDIO_SECOND = 0.05;

/** How busy the machine is as the server sees it (os.loadavg, os.availableParallelism, its render threads). */
export interface MachineLoad {
  /** Runnable threads on the machine, averaged over the last minute (the first of os.loadavg()). */
  load: number;
  cores: number;
  /** This server's render threads. */
  workers: number;
  /** Of those, the ones rendering now (already counted in `load`). */
  rendering: number;
}

/**
 * The speed before any render has been measured here (a new data dir): on a busy machine a render thread gets a
 * share of a core, so the unloaded cost is scaled by how many threads want each core once this server's render
 * threads all run: the others' load (less this server's own renders in it) plus the render threads, per core, and
 * never less than 1. On the loaded machine of bench:estimates the built-in speed alone put every first estimate at
 * a tenth of the real wait.
 */
export function loadedSpeed(machine: MachineLoad): SpeedModel {
  const others = Math.max(0, machine.load - machine.rendering);
  const contention = Math.max(1, (others + Math.max(1, machine.workers)) / Math.max(1, machine.cores));
  return { overheadSeconds: DEFAULT_SPEED.overheadSeconds, perAudioSecond: UNLOADED_PER_AUDIO_SECOND * contention };
}

/** What makes one track cost more than another of its length: the stems and the audio options it asks for. */
export interface RenderWork {
  stems?: boolean | undefined;
  encoding?: { sample_rate?: number; bit_depth?: number } | null | undefined;
}

/**
 * How many plain renders of the same length a task costs. Measured on the loaded 2-core machine, 60 s lofi, two
 * rounds alternating (renderTrack plain, with stems, and 48 kHz 24-bit against 44.1 kHz 16-bit with MP3 and FLAC): plain
 * WAV 21.9 s; with stems 44.6 s (2.04×; docs/engine.md's bench:stems has 2.5–3.4× at 60 s, 1.4× at 180 s); 48 kHz
 * 24-bit 1.04× the same request at 44.1 kHz 16-bit (the master's resampling; 24 bits cost nothing measurable).
 * The speed model learns its per-second cost from renders divided by this factor.
 */
export function workFactor(task: RenderWork): number {
  const stems = task.stems === true ? STEMS_FACTOR : 1;
  const rate = task.encoding?.sample_rate === 48000 ? RATE_48K_FACTOR : 1;
  return stems * rate;
}
export const STEMS_FACTOR = 2;
export const RATE_48K_FACTOR = 1.05;

/** A task as an estimate sees it: its length and what makes it cost more. */
export interface EstimatedWork extends RenderWork {
  duration: number;
}

/** Expected wall seconds of a task's render at this speed, on one thread: the one estimate both queues use. */
export function renderEstimate(model: SpeedModel, task: EstimatedWork): number {
  return (model.overheadSeconds + task.duration * model.perAudioSecond) * workFactor(task);
}

/**
 * The per-second cost one render shows: its wall time as a plain render's (divided by its workFactor) less the
 * fixed cost, per second of audio; a render faster than the overhead alone still says it is small, never negative.
 */
function perSecondSample(overheadSeconds: number, wallSeconds: number, audioSeconds: number, factor: number): number {
  return Math.max(0.001, (wallSeconds / factor - overheadSeconds) / audioSeconds);
}

/** The mean per-second cost of finished renders (wall seconds from start to completion); undefined for none. */
export function learnedPerAudioSecond(
  renders: readonly (EstimatedWork & { wall_seconds: number })[],
): number | undefined {
  const samples = renders
    .filter((render) => render.wall_seconds > 0 && render.duration > 0)
    .map((render) =>
      perSecondSample(DEFAULT_SPEED.overheadSeconds, render.wall_seconds, render.duration, workFactor(render)),
    );
  return samples.length === 0 ? undefined : samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
}

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

  /** Whether the per-second cost was measured (a render here, or before a restart), not the prior. */
  get learned(): boolean {
    return this.#learned;
  }

  /** A render of `audioSeconds` that took `wallSeconds`, `factor` times the work of a plain one (workFactor). */
  record(wallSeconds: number, audioSeconds: number, factor = 1): void {
    if (!(wallSeconds > 0) || !(audioSeconds > 0)) return;
    const sample = perSecondSample(this.overheadSeconds, wallSeconds, audioSeconds, factor);
    this.#perAudioSecond = this.#learned
      ? this.#perAudioSecond + this.weight * (sample - this.#perAudioSecond)
      : sample;
    this.#learned = true;
  }

  /** Expected wall seconds to render a track of this many seconds, `factor` times the work of a plain one. */
  estimate(audioSeconds: number, factor = 1): number {
    return (this.overheadSeconds + audioSeconds * this.#perAudioSecond) * factor;
  }
}
