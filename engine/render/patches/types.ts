/**
 * A pitched patch is a recipe that builds a Tone.js instrument (an instance of the patch) inside a prerender
 * context. The prerender holds each instance for as long as the longest note needs and applies the note's release
 * afterwards (sampler style), so an instance only needs to start and stop.
 */
import type { ToneLib } from '../globals.ts';
import type { ToneAudioNode, ToneAudioBuffer } from 'tone';

export interface PatchTools {
  Tone: ToneLib;
  /** Where the instance must connect its output. */
  output: ToneAudioNode;
  /** Seeded white noise (a few seconds) for breath, hammer and pick transients. */
  noise: ToneAudioBuffer;
}

export interface PatchInstance {
  start(frequency: number, time: number): void;
  stop(time: number): void;
}

export interface PitchedPatch {
  /** Seconds of fade after the note's end (applied by the mixer). */
  release: number;
  /**
   * How a held note continues: 'loop' for sustaining sounds (the mixer loops a stable stretch of the sample,
   * so long notes cost no extra prerender), or the seconds after which a decaying sound has died away.
   */
  hold: 'loop' | number;
  /** For looping patches: seconds after which the envelopes have settled, where the loop may begin. */
  loopStart?: number;
  /** Level trim in dB after loudness calibration (perceived balance between patches). */
  trimDb: number;
  build(tools: PatchTools): PatchInstance;
}

/** An instance built from one Tone monophonic instrument plus optional extra layers started together. */
export function instrumentInstance(
  instrument: {
    triggerAttack(note: number, time: number, velocity?: number): unknown;
    triggerRelease(time: number): unknown;
  },
  layers: ((frequency: number, time: number) => void)[] = [],
): PatchInstance {
  return {
    start(frequency, time) {
      instrument.triggerAttack(frequency, time, 0.8);
      for (const layer of layers) layer(frequency, time);
    },
    stop(time) {
      instrument.triggerRelease(time);
    },
  };
}

/** A short filtered noise burst (hammer, pick, breath onset) played from the seeded noise buffer. */
export function noiseBurst(
  tools: PatchTools,
  options: { type: BiquadFilterType; frequency: number; q: number; level: number; decay: number; offset: number },
): (frequency: number, time: number) => void {
  const { Tone } = tools;
  const filter = new Tone.Filter({ type: options.type, frequency: options.frequency, Q: options.q }).connect(
    tools.output,
  );
  const gain = new Tone.Gain(0).connect(filter);
  const player = new Tone.Player(tools.noise).connect(gain);
  return (_frequency, time) => {
    player.start(time, options.offset, options.decay * 4);
    gain.gain.setValueAtTime(options.level, time);
    gain.gain.exponentialApproachValueAtTime(0, time + 0.001, options.decay);
  };
}
