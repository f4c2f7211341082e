/** Plucked and struck patches: synth pluck, nylon guitar, distorted guitar, marimba, bells, FM bell. */
import { instrumentVoice, type PitchedPatch } from './types.ts';
import { monoSynthPatch } from './synthPatch.ts';

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

/** Nylon guitar: a soft triangle-rich tone through a closing low-pass, plus a pick noise. */
export const guitar: PitchedPatch = monoSynthPatch({
  release: 0.2,
  hold: 2.2,
  trimDb: 0,
  synth: {
    oscillator: { type: 'custom', partials: [1, 0.5, 0.33, 0.2, 0.15, 0.1, 0.07] },
    filter: { type: 'lowpass', Q: 1, rolloff: -12 },
    envelope: { attack: 0.002, decay: 1.8, sustain: 0, release: 0.05 },
    filterEnvelope: { attack: 0.001, decay: 0.6, sustain: 0.1, release: 0.05, baseFrequency: 500, octaves: 3 },
  },
  // Pick noise.
  transient: { type: 'bandpass', frequency: 3500, q: 1, level: 0.12, decay: 0.006, offset: 0.5 },
});

/** Overdriven electric guitar: detuned saws through a waveshaper and a cabinet-like band-pass. */
export const distGuitar: PitchedPatch = {
  release: 0.12,
  hold: 'loop',
  loopStart: 0.45,
  trimDb: -3,
  build(tools) {
    const { Tone } = tools;
    const cabinet = new Tone.Filter({ type: 'lowpass', frequency: 3200, Q: 0.7 }).connect(tools.output);
    const drive = new Tone.Distortion({ distortion: 0.8, oversample: 'none' }).connect(cabinet);
    const synth = new Tone.Synth({
      oscillator: { type: 'fatsawtooth32', count: 2, spread: 12 },
      envelope: { attack: 0.004, decay: 0.3, sustain: 0.8, release: 0.05 },
    }).connect(drive);
    return instrumentVoice(synth);
  },
};

/** Marimba: a sine with a 4th-harmonic overtone that dies fast, short decay. */
export const marimba: PitchedPatch = {
  release: 0.1,
  hold: 0.8,
  trimDb: 0,
  build(tools) {
    const { Tone } = tools;
    const synth = new Tone.FMSynth({
      harmonicity: 4,
      modulationIndex: 1.5,
      oscillator: { type: 'sine' },
      envelope: { attack: 0.001, decay: 0.7, sustain: 0, release: 0.05 },
      modulationEnvelope: { attack: 0.001, decay: 0.08, sustain: 0, release: 0.05 },
    }).connect(tools.output);
    return instrumentVoice(synth);
  },
};

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
    return instrumentVoice(synth);
  },
};
