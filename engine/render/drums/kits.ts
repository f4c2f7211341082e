/**
 * Drum kits: for every drum of DRUMS a hit recipe, a length (how long its prerendered sample rings) and a peak
 * level (the kit's internal balance; the part gain sits on top).
 */
import type { Drum } from '../../types.ts';
import { clap, click, layer, membrane, metal, noise, type Hit } from './hits.ts';

export interface DrumSound {
  hit: Hit;
  /** Seconds of the prerendered sample. */
  length: number;
  /** Peak level of the loudest layer, 0–1. */
  peak: number;
}

export type Kit = Record<Drum, DrumSound>;

/** The synthesized drums the electronic kits start from (acoustic kits are sampled: ../sampled/catalogue.ts). */
const baseKit: Kit = {
  kick: {
    hit: layer(
      membrane({ note: 52, octaves: 4, pitchDecay: 0.04, decay: 0.45 }),
      noise({ type: 'lowpass', frequency: 3000, decay: 0.004, level: 0.2 }),
    ),
    length: 0.6,
    peak: 0.95,
  },
  snare: {
    hit: layer(
      membrane({ note: 190, octaves: 1.2, pitchDecay: 0.02, decay: 0.12, wave: 'triangle', level: 0.8 }),
      noise({ type: 'highpass', frequency: 1800, decay: 0.09, level: 0.9 }),
    ),
    length: 0.45,
    peak: 0.8,
  },
  clap: { hit: clap({ frequency: 1200, decay: 0.12 }), length: 0.4, peak: 0.6 },
  hat: {
    hit: layer(
      metal({ frequency: 250, decay: 0.04, resonance: 6000, level: 0.6 }),
      noise({ type: 'highpass', frequency: 8000, decay: 0.025, level: 0.4 }),
    ),
    length: 0.2,
    peak: 0.35,
  },
  openHat: {
    hit: layer(
      metal({ frequency: 250, decay: 0.32, resonance: 5500, level: 0.6 }),
      noise({ type: 'highpass', frequency: 7000, decay: 0.2, level: 0.35 }),
    ),
    length: 0.9,
    peak: 0.35,
  },
  ride: { hit: metal({ frequency: 380, decay: 1.1, resonance: 5000 }), length: 1.6, peak: 0.3 },
  crash: {
    hit: layer(
      metal({ frequency: 300, decay: 1.6, resonance: 3500 }),
      noise({ type: 'highpass', frequency: 4000, decay: 0.8, level: 0.5 }),
    ),
    length: 2.6,
    peak: 0.45,
  },
  tomLow: { hit: membrane({ note: 95, octaves: 1.4, pitchDecay: 0.06, decay: 0.5 }), length: 0.8, peak: 0.7 },
  tomHigh: { hit: membrane({ note: 150, octaves: 1.4, pitchDecay: 0.05, decay: 0.4 }), length: 0.7, peak: 0.65 },
  shaker: {
    hit: noise({ type: 'bandpass', frequency: 6500, q: 1.5, decay: 0.035, attack: 0.012 }),
    length: 0.2,
    peak: 0.25,
  },
  rim: {
    hit: layer(
      click({ frequency: 1700, decay: 0.03 }),
      noise({ type: 'bandpass', frequency: 3000, q: 2, decay: 0.01, level: 0.5 }),
    ),
    length: 0.15,
    peak: 0.45,
  },
};

const electronicKit: Kit = {
  ...baseKit,
  kick: { hit: membrane({ note: 48, octaves: 5, pitchDecay: 0.05, decay: 0.55 }), length: 0.7, peak: 1 },
  snare: {
    hit: layer(
      membrane({ note: 200, octaves: 1.5, pitchDecay: 0.015, decay: 0.1, level: 0.7 }),
      noise({ type: 'bandpass', frequency: 3500, q: 0.6, decay: 0.12 }),
    ),
    length: 0.45,
    peak: 0.8,
  },
  clap: { hit: clap({ frequency: 1400, decay: 0.16 }), length: 0.5, peak: 0.7 },
  hat: { hit: noise({ type: 'highpass', frequency: 9000, decay: 0.03 }), length: 0.15, peak: 0.35 },
  openHat: { hit: noise({ type: 'highpass', frequency: 8000, decay: 0.18 }), length: 0.8, peak: 0.35 },
};

const lofiKit: Kit = {
  ...baseKit,
  kick: { hit: membrane({ note: 50, octaves: 3, pitchDecay: 0.05, decay: 0.35 }), length: 0.5, peak: 0.9 },
  snare: {
    hit: layer(
      membrane({ note: 180, octaves: 1, pitchDecay: 0.02, decay: 0.1, wave: 'triangle', level: 0.6 }),
      noise({ type: 'bandpass', frequency: 1800, q: 0.8, decay: 0.1 }),
    ),
    length: 0.4,
    peak: 0.7,
  },
  hat: { hit: noise({ type: 'bandpass', frequency: 5000, q: 0.9, decay: 0.03 }), length: 0.15, peak: 0.25 },
  openHat: { hit: noise({ type: 'bandpass', frequency: 5000, q: 0.9, decay: 0.15 }), length: 0.6, peak: 0.25 },
  rim: { hit: click({ frequency: 1200, decay: 0.04 }), length: 0.15, peak: 0.4 },
};

const trapKit: Kit = {
  ...electronicKit,
  // The 808: a long sine boom with a slow pitch fall.
  kick: { hit: membrane({ note: 45, octaves: 2.5, pitchDecay: 0.12, decay: 1.6 }), length: 2, peak: 1 },
  snare: {
    hit: layer(
      membrane({ note: 220, octaves: 1.2, pitchDecay: 0.01, decay: 0.08, level: 0.5 }),
      clap({ frequency: 1600, decay: 0.14 }),
    ),
    length: 0.45,
    peak: 0.8,
  },
  hat: { hit: noise({ type: 'highpass', frequency: 9500, decay: 0.018 }), length: 0.1, peak: 0.3 },
};

const chipKit: Kit = {
  kick: {
    hit: membrane({ note: 60, octaves: 4, pitchDecay: 0.03, decay: 0.15, wave: 'square' }),
    length: 0.25,
    peak: 0.7,
  },
  snare: { hit: noise({ type: 'lowpass', frequency: 6000, decay: 0.08 }), length: 0.3, peak: 0.6 },
  clap: { hit: noise({ type: 'bandpass', frequency: 2000, decay: 0.06 }), length: 0.25, peak: 0.5 },
  hat: { hit: noise({ type: 'highpass', frequency: 7000, decay: 0.015 }), length: 0.08, peak: 0.3 },
  openHat: { hit: noise({ type: 'highpass', frequency: 6000, decay: 0.1 }), length: 0.4, peak: 0.3 },
  ride: { hit: click({ frequency: 2200, decay: 0.2, wave: 'square', level: 0.3 }), length: 0.5, peak: 0.25 },
  crash: { hit: noise({ type: 'highpass', frequency: 3000, decay: 0.5 }), length: 1.5, peak: 0.4 },
  tomLow: {
    hit: membrane({ note: 110, octaves: 2, pitchDecay: 0.05, decay: 0.2, wave: 'square' }),
    length: 0.3,
    peak: 0.5,
  },
  tomHigh: {
    hit: membrane({ note: 180, octaves: 2, pitchDecay: 0.05, decay: 0.2, wave: 'square' }),
    length: 0.3,
    peak: 0.5,
  },
  shaker: { hit: noise({ type: 'highpass', frequency: 8000, decay: 0.02 }), length: 0.1, peak: 0.2 },
  rim: { hit: click({ frequency: 1800, decay: 0.03, wave: 'square', level: 0.4 }), length: 0.1, peak: 0.35 },
};

export const KITS: Readonly<Record<string, Kit>> = { electronicKit, lofiKit, trapKit, chipKit };
