/**
 * Specs and presets for the compose tests: a spec built from a preset's own defaults (as interpret would
 * for a prompt naming only the genre), plus two hand-written presets so compose is tested independently
 * of the shipped preset files.
 */
import type { Mode, PitchClass, Preset, Role, SongSpec } from '../../engine/types.ts';

export function specFor(preset: Preset, overrides: Partial<SongSpec> = {}): SongSpec {
  return {
    prompt: `${preset.name} test`,
    duration: 60,
    seed: 1,
    genre: preset.name,
    blend: null,
    bpm: preset.bpm.default,
    meter: { ...preset.meter },
    swing: preset.swing,
    key: { tonic: 'D' as PitchClass, mode: preset.modes[0] as Mode },
    valence: preset.valence,
    arousal: preset.arousal,
    density: 0.5,
    form: preset.form,
    instruments: Object.entries(preset.instruments).map(([role, instrument]) => ({ role: role as Role, instrument })),
    excluded: [],
    effects: { ...preset.effects, rain: false },
    vocals: { enabled: false, gender: 'female' },
    lyrics: null,
    title: 'Test',
    trace: [],
    warnings: [],
    ...overrides,
  };
}

/** A lo-fi-like style: swung, jazzy sevenths, comped keys, a loop form. */
export const LOFI_LIKE: Preset = {
  name: 'fixture-lofi',
  description: 'fixture',
  aliases: [],
  bpm: { min: 70, max: 90, default: 82 },
  meter: { beatsPerBar: 4, beatUnit: 4 },
  swing: 0.5,
  modes: ['minor', 'major'],
  valence: -0.1,
  arousal: -0.4,
  form: 'loop',
  progressions: {
    major: [
      ['ii7', 'V7', 'Imaj7', 'vi7'],
      ['Imaj7', 'IVmaj7'],
    ],
    minor: [
      ['i7', 'iv7', 'bVIImaj7', 'bIIImaj7'],
      ['i7', 'bVImaj7', 'iv7', 'V7'],
    ],
  },
  harmonicRhythm: 1,
  drums: {
    stepsPerBar: 16,
    main: { kick: '9.....7...8.....', snare: '....8.......8...', hat: '6.3.5.3.6.3.5.3.' },
    fill: { kick: '9.....7...8.....', snare: '....8.......8.56', hat: '6.3.5.3.6.3.5...' },
    half: { kick: '8.........7.....', snare: '........7.......', hat: '5...4...5...4...' },
  },
  bass: 'walking',
  chords: 'comp',
  melody: { low: 62, high: 81, density: 0.4 },
  instruments: { drums: 'lofiKit', bass: 'fingerBass', chords: 'rhodes', lead: 'piano', texture: 'vinyl' },
  effects: { reverb: 0.3, reverbDecay: 2, delay: 0.1, lofi: true, brightness: 7000 },
  vocal: false,
};

/** An EDM-like style in 6/8 (to exercise compound meter): builds and drops, stabs, acid bass, an arp. */
export const EDM_LIKE: Preset = {
  name: 'fixture-edm',
  description: 'fixture',
  aliases: [],
  bpm: { min: 118, max: 130, default: 124 },
  meter: { beatsPerBar: 6, beatUnit: 8 },
  swing: 0,
  modes: ['minor'],
  valence: 0.1,
  arousal: 0.6,
  form: 'electronic',
  progressions: {
    major: [['vi', 'IV', 'I', 'V']],
    minor: [
      ['i', 'bVI', 'bIII', 'bVII'],
      ['i', 'iv'],
    ],
  },
  harmonicRhythm: 1,
  drums: {
    stepsPerBar: 12,
    main: { kick: '9..9..9..9..', clap: '...8.....8..', hat: '.5..5..5..5.' },
    fill: { kick: '9..9..9..9..', snare: '...6.6.7.8.9' },
    half: { kick: '8.....8.....', hat: '..4.....4...' },
  },
  bass: 'acid',
  chords: 'stabs',
  melody: { low: 64, high: 84, density: 0.55 },
  instruments: {
    drums: 'electronicKit',
    bass: 'acidBass',
    chords: 'pluck',
    pad: 'synthPad',
    lead: 'sawLead',
    arp: 'pluck',
  },
  effects: { reverb: 0.25, reverbDecay: 1.5, delay: 0.2, lofi: false, brightness: 16000 },
  vocal: false,
};
