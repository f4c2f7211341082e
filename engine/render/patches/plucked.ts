/** Synthesized plucked and struck patches: a synth pluck, bells, an FM bell. */
import { instrumentInstance, type PitchedPatch } from './types.ts';
import { monoSynthPatch } from './synth-patch.ts';

export const pluck: PitchedPatch = monoSynthPatch({
  release: 0.15,
  hold: 0.6,
  trimDb: 0,
  synth: {
    oscillator: { type: 'sawtooth' },
    filter: { type: 'lowpass', Q: 2, rolloff: -12 },
    envelope: { attack: 0.002, decay: 0.45, sustain: 0, release: 0.05 },
    filterEnvelope: { attack: 0.001, decay: 0.18, sustain: 0, release: 0.05, baseFrequency: 300, octaves: 4.5 },
  },
});

/** Glockenspiel-like bells: inharmonic partials with a long ring. */
export const bells: PitchedPatch = {
  release: 0.6,
  hold: 2.8,
  trimDb: -2,
  build(tools) {
    const { Tone } = tools;
    const synth = new Tone.Synth({
      oscillator: { type: 'sine' },
      envelope: { attack: 0.001, decay: 2.5, sustain: 0, release: 0.05 },
    }).connect(tools.output);
    const overtone = new Tone.Synth({
      oscillator: { type: 'sine' },
      envelope: { attack: 0.001, decay: 0.6, sustain: 0, release: 0.05 },
      volume: -8,
    }).connect(tools.output);
    return {
      start(frequency, time) {
        synth.triggerAttack(frequency, time, 0.8);
        overtone.triggerAttack(frequency * 2.76, time, 0.8);
      },
      stop(time) {
        synth.triggerRelease(time);
        overtone.triggerRelease(time);
      },
    };
  },
};

/** The classic DX bell: FM with a non-integer ratio. */
export const fmBell: PitchedPatch = {
  release: 0.8,
  hold: 3.2,
  trimDb: -2,
  build(tools) {
    const { Tone } = tools;
    const synth = new Tone.FMSynth({
      harmonicity: 3.5,
      modulationIndex: 12,
      oscillator: { type: 'sine' },
      envelope: { attack: 0.001, decay: 3, sustain: 0.0, release: 0.05 },
      modulationEnvelope: { attack: 0.001, decay: 1.2, sustain: 0.1, release: 0.05 },
    }).connect(tools.output);
    return instrumentInstance(synth);
  },
};
