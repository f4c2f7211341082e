/** Sustained patches: strings, brass, choir, flute and two pads. Slow envelopes, filtered rich waveforms. */
import { instrumentVoice, type PitchedPatch, type VoiceTools } from './types.ts';
import { monoSynthPatch, synthPatch } from './synthPatch.ts';

/** Breath or bow noise that follows the note: band-passed seeded noise with its own slow envelope. */
function sustainedNoise(tools: VoiceTools, filter: { frequency: number; q: number }, level: number, attack: number) {
  const { Tone } = tools;
  const band = new Tone.Filter({ type: 'bandpass', frequency: filter.frequency, Q: filter.q }).connect(tools.output);
  const envelope = new Tone.AmplitudeEnvelope({ attack, decay: 0.2, sustain: 0.6, release: 0.05 }).connect(band);
  const player = new Tone.Player({ url: tools.noise, loop: true }).connect(envelope);
  player.volume.value = 20 * Math.log10(level);
  return {
    start(time: number) {
      player.start(time, 0);
      envelope.triggerAttack(time);
    },
    stop(time: number) {
      envelope.triggerRelease(time);
      player.stop(time + 0.06);
    },
  };
}

/** String section: detuned saws, slow attack, a gentle low-pass and vibrato. */
export const strings: PitchedPatch = synthPatch({
  release: 0.9,
  hold: 'loop',
  loopStart: 0.85,
  trimDb: -1,
  lowpass: { frequency: 2800, Q: 0.5, rolloff: -24 },
  synth: {
    oscillator: { type: 'fatsawtooth32', count: 2, spread: 16 },
    envelope: { attack: 0.35, decay: 0.4, sustain: 0.85, release: 0.05 },
  },
  vibrato: { frequency: 5, cents: 7 },
});

/** Brass: saw through a low-pass whose envelope opens on the attack ("blat"), then settles. */
export const brass: PitchedPatch = monoSynthPatch({
  release: 0.25,
  hold: 'loop',
  loopStart: 0.7,
  trimDb: -1,
  synth: {
    oscillator: { type: 'fatsawtooth32', count: 2, spread: 8 },
    filter: { type: 'lowpass', Q: 1.2, rolloff: -12 },
    envelope: { attack: 0.06, decay: 0.3, sustain: 0.8, release: 0.05 },
    filterEnvelope: { attack: 0.08, decay: 0.5, sustain: 0.55, release: 0.05, baseFrequency: 350, octaves: 3.2 },
  },
});

/** "Aah" choir: saws through two formant band-passes (about 700 and 1100 Hz) with a slow swell. */
export const choir: PitchedPatch = {
  release: 0.8,
  hold: 'loop',
  loopStart: 0.85,
  trimDb: 2,
  build(tools) {
    const { Tone } = tools;
    const mix = new Tone.Gain(1).connect(tools.output);
    const formant1 = new Tone.Filter({ type: 'bandpass', frequency: 720, Q: 4 }).connect(mix);
    const formant2 = new Tone.Filter({ type: 'bandpass', frequency: 1150, Q: 5 }).connect(mix);
    const formant3 = new Tone.Filter({ type: 'bandpass', frequency: 2600, Q: 6 }).connect(new Tone.Gain(0.4).connect(mix));
    const synth = new Tone.Synth({
      oscillator: { type: 'fatsawtooth32', count: 2, spread: 20 },
      envelope: { attack: 0.45, decay: 0.3, sustain: 0.9, release: 0.05 },
    }).fan(formant1, formant2, formant3);
    const vibrato = new Tone.LFO({ frequency: 5.2, min: -10, max: 10 }).connect(synth.detune);
    vibrato.start(0);
    return instrumentVoice(synth);
  },
};

/** Flute: a near-sine with a little 2nd harmonic, delayed vibrato and breath noise. */
export const flute: PitchedPatch = {
  release: 0.15,
  hold: 'loop',
  loopStart: 0.35,
  trimDb: 0,
  build(tools) {
    const { Tone } = tools;
    const synth = new Tone.Synth({
      oscillator: { type: 'custom', partials: [1, 0.18, 0.06] },
      envelope: { attack: 0.07, decay: 0.2, sustain: 0.85, release: 0.05 },
    }).connect(tools.output);
    const vibrato = new Tone.LFO({ frequency: 5, min: -9, max: 9 }).connect(synth.detune);
    vibrato.start(0);
    const breath = sustainedNoise(tools, { frequency: 2200, q: 1.2 }, 0.18, 0.03);
    return {
      start(frequency, time) {
        synth.triggerAttack(frequency, time, 0.8);
        breath.start(time);
      },
      stop(time) {
        synth.triggerRelease(time);
        breath.stop(time);
      },
    };
  },
};

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
