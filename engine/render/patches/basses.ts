/** Bass patches. */
import type { PitchedPatch } from './types.ts';
import { monoSynthPatch, synthPatch } from './synth-patch.ts';

/** A pure sine sub with a soft attack (808-style sustained bass). */
export const subBass: PitchedPatch = synthPatch({
  release: 0.12,
  hold: 'loop',
  loopStart: 0.5,
  trimDb: 0,
  synth: {
    oscillator: { type: 'custom', partials: [1, 0.08, 0.03] },
    envelope: { attack: 0.008, decay: 0.4, sustain: 0.85, release: 0.05 },
  },
});

/**
 * An 808 as trap and reggaeton mix it: the sine sub driven into saturation, so its second and third harmonics
 * carry the note on speakers that cannot play 40 Hz (a pure sine D1 is silent on a laptop, and the line is
 * heard only where it climbs above the key's tonic).
 */
export const tr808Bass: PitchedPatch = synthPatch({
  release: 0.12,
  hold: 'loop',
  loopStart: 0.5,
  trimDb: -1,
  synth: {
    oscillator: { type: 'custom', partials: [1, 0.35, 0.2, 0.08, 0.04] },
    envelope: { attack: 0.008, decay: 0.4, sustain: 0.85, release: 0.05 },
  },
});

/** TB-303 style: saw through a resonant low-pass with a fast, deep filter envelope. */
export const acidBass: PitchedPatch = monoSynthPatch({
  release: 0.06,
  hold: 'loop',
  loopStart: 0.6,
  trimDb: -2,
  synth: {
    oscillator: { type: 'sawtooth' },
    filter: { type: 'lowpass', Q: 9, rolloff: -24 },
    envelope: { attack: 0.003, decay: 0.3, sustain: 0.6, release: 0.05 },
    filterEnvelope: { attack: 0.002, decay: 0.22, sustain: 0.1, release: 0.05, baseFrequency: 180, octaves: 4.2 },
  },
});

/** Reese: two saws detuned against each other (the beating is the sound), low-passed. */
export const reeseBass: PitchedPatch = synthPatch({
  release: 0.12,
  hold: 'loop',
  loopStart: 0.3,
  trimDb: -1,
  lowpass: { frequency: 900, Q: 0.8, rolloff: -24 },
  synth: {
    oscillator: { type: 'fatsawtooth32', count: 2, spread: 28 },
    envelope: { attack: 0.01, decay: 0.2, sustain: 0.9, release: 0.05 },
  },
});

/** A generic analog synth bass: square plus sub, moderately plucky filter. */
export const synthBass: PitchedPatch = monoSynthPatch({
  release: 0.08,
  hold: 'loop',
  loopStart: 0.6,
  trimDb: 0,
  synth: {
    oscillator: { type: 'fatsquare24', count: 2, spread: 10 } as never,
    filter: { type: 'lowpass', Q: 2.5, rolloff: -12 },
    envelope: { attack: 0.004, decay: 0.35, sustain: 0.65, release: 0.05 },
    filterEnvelope: { attack: 0.002, decay: 0.2, sustain: 0.35, release: 0.05, baseFrequency: 220, octaves: 3 },
  },
});
