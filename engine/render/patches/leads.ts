/** Lead synths. */
import type { PitchedPatch } from './types.ts';
import { monoSynthPatch } from './synth-patch.ts';

export const sawLead: PitchedPatch = monoSynthPatch({
  release: 0.15,
  hold: 'loop',
  loopStart: 0.7,
  trimDb: -1,
  synth: {
    oscillator: { type: 'fatsawtooth32', count: 2, spread: 14 },
    filter: { type: 'lowpass', Q: 2, rolloff: -12 },
    envelope: { attack: 0.01, decay: 0.25, sustain: 0.75, release: 0.05 },
    filterEnvelope: { attack: 0.005, decay: 0.35, sustain: 0.5, release: 0.05, baseFrequency: 900, octaves: 2.8 },
  },
  vibrato: { frequency: 5.5, cents: 6, start: 0.3 },
});

export const squareLead: PitchedPatch = monoSynthPatch({
  release: 0.12,
  hold: 'loop',
  loopStart: 0.45,
  trimDb: -1,
  synth: {
    oscillator: { type: 'pulse', width: 0.35 } as never,
    filter: { type: 'lowpass', Q: 1, rolloff: -12 },
    envelope: { attack: 0.005, decay: 0.2, sustain: 0.7, release: 0.05 },
    filterEnvelope: { attack: 0.002, decay: 0.25, sustain: 0.6, release: 0.05, baseFrequency: 1400, octaves: 2 },
  },
});
