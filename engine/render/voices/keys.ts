/** Keyboard patches: piano, electric piano, organ. */
import { instrumentVoice, noiseBurst, type PitchedPatch } from './types.ts';
import { synthPatch } from './synthPatch.ts';

/** A decaying two-operator FM tone (bright onset, mellowing as the modulation envelope falls) plus a hammer click. */
export const piano: PitchedPatch = {
  release: 0.35,
  hold: 3.5,
  trimDb: 0,
  build(tools) {
    const { Tone } = tools;
    const body = new Tone.FMSynth({
      harmonicity: 1,
      modulationIndex: 3.2,
      oscillator: { type: 'sine' },
      modulation: { type: 'sine' },
      envelope: { attack: 0.002, decay: 3.2, sustain: 0.0, release: 0.05 },
      modulationEnvelope: { attack: 0.002, decay: 0.9, sustain: 0.05, release: 0.05 },
    }).connect(tools.output);
    // A quiet octave partial makes the tone less bell-like and more stringy.
    const octave = new Tone.Synth({
      oscillator: { type: 'triangle' },
      envelope: { attack: 0.002, decay: 1.6, sustain: 0, release: 0.05 },
      volume: -16,
    }).connect(tools.output);
    const hammer = noiseBurst(tools, { type: 'bandpass', frequency: 2500, q: 0.8, level: 0.25, decay: 0.012, offset: 0.1 });
    return {
      start(frequency, time) {
        body.triggerAttack(frequency, time, 0.8);
        octave.triggerAttack(frequency * 2, time, 0.8);
        hammer(frequency, time);
      },
      stop(time) {
        body.triggerRelease(time);
        octave.triggerRelease(time);
      },
    };
  },
};

/** A Rhodes-like FM electric piano: a bell tine over a sine body, with amplitude tremolo. */
export const rhodes: PitchedPatch = {
  release: 0.4,
  hold: 4,
  trimDb: 0,
  build(tools) {
    const { Tone } = tools;
    const tremolo = new Tone.Gain(1).connect(tools.output);
    const lfo = new Tone.LFO({ frequency: 4.2, min: 0.72, max: 1 }).connect(tremolo.gain);
    lfo.start(0);
    const synth = new Tone.FMSynth({
      harmonicity: 3.5,
      modulationIndex: 6,
      oscillator: { type: 'sine' },
      modulation: { type: 'sine' },
      envelope: { attack: 0.003, decay: 2.6, sustain: 0.25, release: 0.05 },
      modulationEnvelope: { attack: 0.002, decay: 0.35, sustain: 0.02, release: 0.05 },
    }).connect(tremolo);
    return instrumentVoice(synth);
  },
};

/** A drawbar organ: additive sine partials (8', 4', 2 2/3'), instant attack, a touch of key click. */
export const organ: PitchedPatch = synthPatch({
  release: 0.08,
  hold: 'loop',
  loopStart: 0.2,
  trimDb: -2,
  synth: {
    oscillator: { type: 'custom', partials: [1, 0.7, 0.45, 0.5, 0, 0.25, 0, 0.2] },
    envelope: { attack: 0.006, decay: 0.1, sustain: 0.95, release: 0.05 },
  },
  // Key click.
  transient: { type: 'highpass', frequency: 3000, q: 0.5, level: 0.08, decay: 0.004, offset: 0.3 },
});
