/** Synthesizer pads. Slow envelopes, filtered rich waveforms. */
import type { PitchedPatch } from './types.ts';
import { monoSynthPatch, synthPatch } from './synth-patch.ts';

/** Warm pad: detuned triangles, low-passed, very slow attack. */
export const warmPad: PitchedPatch = synthPatch({
  release: 1.5,
  hold: 'loop',
  loopStart: 1.1,
  trimDb: -1,
  lowpass: { frequency: 1400, Q: 0.6, rolloff: -24 },
  synth: {
    oscillator: { type: 'fattriangle12', count: 2, spread: 18 },
    envelope: { attack: 0.6, decay: 0.4, sustain: 0.9, release: 0.05 },
  },
});

/** Synth pad: bright supersaw with a slow filter sweep. */
export const synthPad: PitchedPatch = monoSynthPatch({
  release: 1.2,
  hold: 'loop',
  loopStart: 1.1,
  trimDb: -2,
  synth: {
    oscillator: { type: 'fatsawtooth32', count: 2, spread: 26 },
    filter: { type: 'lowpass', Q: 1.5, rolloff: -12 },
    envelope: { attack: 0.5, decay: 0.5, sustain: 0.85, release: 0.05 },
    filterEnvelope: { attack: 0.5, decay: 0.5, sustain: 0.5, release: 0.05, baseFrequency: 500, octaves: 3 },
  },
});
