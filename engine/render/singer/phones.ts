/**
 * What each phone sounds like, as synthesis targets: formants (Peterson & Barney 1952 averages for the vowels),
 * the nasal zero, source amplitudes and the shape of the noise branch. Values are male; female consonant
 * loci are scaled up like the vowels (shorter vocal tract).
 */
import type { Phone } from '../../types.ts';

/** Indexes into a parameter vector (a Float64Array of PARAM_COUNT). */
export const F1 = 0; // F1..F5 at 0..4
export const B1 = 5; // B1..B5 at 5..9
export const FNZ = 10; // nasal zero; equal to the nasal pole (NASAL_POLE) outside nasals, so the pair cancels
export const AV = 11; // voicing amplitude
export const ASP = 12; // aspiration (noise through the cascade, like the voice)
export const FRIC = 13; // frication/burst amplitude (noise through the parallel branch)
export const PF1 = 14; // parallel band 1: frequency, bandwidth, gain at 14..16
export const PF2 = 17; // parallel band 2 at 17..19
export const BYPASS = 20; // broadband (unfiltered) share of the frication noise
export const GATE = 21; // how much of the cascade reaches the air: 0 while the lips or tongue close the tract
export const PARAM_COUNT = 22;
/** The parameters that glide slowly between phones (coarticulation) and the ones that cross-fade fast. */
export const FORMANT_PARAMS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const AMPLITUDE_PARAMS = [AV, ASP, FRIC, GATE] as const;
/** The sources: scaled by velocity and faded in and out at phrase edges. */
export const SOURCE_PARAMS = [AV, ASP, FRIC] as const;

export const NASAL_POLE = 270;
/** Aspiration level (ASP) of /h/ and of a voiceless stop's release; a vowel has 1. */
const ASPIRATION = 4;

export type Gender = 'female' | 'male';

/** F1/F2/F3 in Hz. */
type Formants = readonly [number, number, number];

/** AH is required: it stands in for a vowel the table does not know. */
const VOWEL_FORMANTS: Record<Gender, Record<string, Formants> & { AH: Formants }> = {
  male: {
    IY: [270, 2290, 3010],
    IH: [390, 1990, 2550],
    EH: [530, 1840, 2480],
    AE: [660, 1720, 2410],
    AA: [730, 1090, 2440],
    AO: [570, 840, 2410],
    UH: [440, 1020, 2240],
    UW: [300, 870, 2240],
    AH: [640, 1190, 2390],
    ER: [490, 1350, 1690],
  },
  female: {
    IY: [310, 2790, 3310],
    IH: [430, 2480, 3070],
    EH: [610, 2330, 2990],
    AE: [860, 2050, 2850],
    AA: [850, 1220, 2810],
    AO: [590, 920, 2710],
    UH: [470, 1160, 2680],
    UW: [370, 950, 2670],
    AH: [760, 1400, 2780],
    ER: [500, 1640, 1960],
  },
};

/** Diphthongs: a start and an end target, each a mix of monophthongs (weights sum to 1). */
const DIPHTHONGS: Record<string, { from: [string, number][]; to: [string, number][] }> = {
  AY: {
    from: [['AA', 1]],
    to: [
      ['IH', 0.6],
      ['IY', 0.4],
    ],
  },
  AW: {
    from: [
      ['AA', 0.7],
      ['AE', 0.3],
    ],
    to: [['UH', 1]],
  },
  EY: {
    from: [
      ['EH', 0.5],
      ['IH', 0.5],
    ],
    to: [
      ['IY', 0.7],
      ['IH', 0.3],
    ],
  },
  OW: {
    from: [
      ['AO', 0.5],
      ['UH', 0.5],
    ],
    to: [
      ['UH', 0.6],
      ['UW', 0.4],
    ],
  },
  OY: {
    from: [['AO', 1]],
    to: [
      ['IH', 0.7],
      ['IY', 0.3],
    ],
  },
};

/**
 * F4, F5 and the bandwidths. A man's F4 and F5 sit close to his F3, near 3 kHz: clustered, they make the singer's
 * formant (Sundberg 1974), the peak that carries his voice over a band (with the lift of synth.ts). A woman's stay
 * apart: sopranos and pop singers have none.
 */
const UPPER: Record<Gender, { f: [number, number]; b: readonly number[] }> = {
  male: { f: [2900, 3400], b: [70, 90, 150, 250, 200] },
  female: { f: [3900, 4500], b: [90, 110, 170, 280, 250] },
};

/** Female consonant loci relative to male: roughly the P&B female/male formant ratio. */
const FEMALE_SCALE = 1.15;

export type ConsonantClass = 'plosive' | 'fricative' | 'affricate' | 'nasal' | 'liquid' | 'glide' | 'aspirate';

interface NoiseShape {
  /** Band 1 and 2: centre Hz, bandwidth Hz, gain; plus the broadband share. */
  bands: [number, number, number, number, number, number];
  bypass: number;
}

export interface ConsonantSpec {
  cls: ConsonantClass;
  voiced: boolean;
  /** Male F1/F2/F3 locus (the tract shape while the consonant is made). */
  locus: Formants;
  /** Noise shape of the frication or burst. */
  noise?: NoiseShape;
  /** Frication/burst level (0–1, before the global calibration). */
  noiseLevel?: number;
  /** Nasal zero, Hz. */
  zero?: number;
}

const S_NOISE: NoiseShape = { bands: [5500, 3000, 1, 8000, 3000, 0.6], bypass: 0 };
const SH_NOISE: NoiseShape = { bands: [2900, 1300, 1, 4300, 2000, 0.5], bypass: 0 };
const F_NOISE: NoiseShape = { bands: [7000, 4000, 0.4, 2500, 2500, 0.15], bypass: 0.35 };
const TH_NOISE: NoiseShape = { bands: [6000, 4000, 0.4, 3500, 2500, 0.2], bypass: 0.35 };
const P_BURST: NoiseShape = { bands: [800, 1500, 1, 2000, 2000, 0.2], bypass: 0.12 };
const T_BURST: NoiseShape = { bands: [4500, 3000, 1, 7000, 3000, 0.5], bypass: 0.2 };
const K_BURST: NoiseShape = { bands: [2000, 1000, 1, 3000, 1500, 0.25], bypass: 0.05 };

const LABIAL: Formants = [220, 900, 2100];
const ALVEOLAR: Formants = [220, 1700, 2600];
const VELAR: Formants = [220, 1900, 2300];
const POSTALVEOLAR: Formants = [250, 1850, 2500];

const CONSONANT_SPECS: Record<string, ConsonantSpec> = {
  P: { cls: 'plosive', voiced: false, locus: LABIAL, noise: P_BURST, noiseLevel: 0.7 },
  B: { cls: 'plosive', voiced: true, locus: LABIAL, noise: P_BURST, noiseLevel: 0.35 },
  T: { cls: 'plosive', voiced: false, locus: ALVEOLAR, noise: T_BURST, noiseLevel: 0.8 },
  D: { cls: 'plosive', voiced: true, locus: ALVEOLAR, noise: T_BURST, noiseLevel: 0.4 },
  K: { cls: 'plosive', voiced: false, locus: VELAR, noise: K_BURST, noiseLevel: 0.8 },
  G: { cls: 'plosive', voiced: true, locus: VELAR, noise: K_BURST, noiseLevel: 0.4 },
  CH: { cls: 'affricate', voiced: false, locus: POSTALVEOLAR, noise: SH_NOISE, noiseLevel: 0.7 },
  JH: { cls: 'affricate', voiced: true, locus: POSTALVEOLAR, noise: SH_NOISE, noiseLevel: 0.4 },
  F: { cls: 'fricative', voiced: false, locus: [250, 1100, 2200], noise: F_NOISE, noiseLevel: 0.13 },
  V: { cls: 'fricative', voiced: true, locus: [250, 1100, 2200], noise: F_NOISE, noiseLevel: 0.08 },
  TH: { cls: 'fricative', voiced: false, locus: [250, 1500, 2600], noise: TH_NOISE, noiseLevel: 0.12 },
  DH: { cls: 'fricative', voiced: true, locus: [250, 1500, 2600], noise: TH_NOISE, noiseLevel: 0.07 },
  S: { cls: 'fricative', voiced: false, locus: ALVEOLAR, noise: S_NOISE, noiseLevel: 0.6 },
  Z: { cls: 'fricative', voiced: true, locus: ALVEOLAR, noise: S_NOISE, noiseLevel: 0.35 },
  SH: { cls: 'fricative', voiced: false, locus: POSTALVEOLAR, noise: SH_NOISE, noiseLevel: 0.75 },
  ZH: { cls: 'fricative', voiced: true, locus: POSTALVEOLAR, noise: SH_NOISE, noiseLevel: 0.45 },
  HH: { cls: 'aspirate', voiced: false, locus: [500, 1500, 2500] },
  M: { cls: 'nasal', voiced: true, locus: [250, 1100, 2300], zero: 800 },
  N: { cls: 'nasal', voiced: true, locus: [250, 1600, 2600], zero: 1500 },
  NG: { cls: 'nasal', voiced: true, locus: [250, 2000, 2700], zero: 2600 },
  L: { cls: 'liquid', voiced: true, locus: [360, 1300, 2700] },
  R: { cls: 'liquid', voiced: true, locus: [330, 1060, 1400] },
  W: { cls: 'glide', voiced: true, locus: [290, 610, 2150] },
  Y: { cls: 'glide', voiced: true, locus: [260, 2070, 3020] },
};

/** The consonant's spec, or undefined for a phone this table does not know (the planner skips those). */
export function consonantSpec(phone: Phone): ConsonantSpec | undefined {
  return CONSONANT_SPECS[phone];
}

function monophthong(phone: Phone, gender: Gender): Formants {
  return VOWEL_FORMANTS[gender][phone] ?? VOWEL_FORMANTS[gender].AH;
}

function mixFormants(parts: [string, number][], gender: Gender): Formants {
  const out: [number, number, number] = [0, 0, 0];
  for (const [phone, w] of parts) {
    const [f1, f2, f3] = monophthong(phone, gender);
    out[0] += f1 * w;
    out[1] += f2 * w;
    out[2] += f3 * w;
  }
  return out;
}

/** A silent vector with the gender's upper formants and bandwidths and no nasal zero. */
function baseParams(gender: Gender, formants: Formants): Float64Array {
  const p = new Float64Array(PARAM_COUNT);
  const upper = UPPER[gender];
  p.set([formants[0], formants[1], formants[2], upper.f[0], upper.f[1]], F1);
  p.set(upper.b, B1);
  p[FNZ] = NASAL_POLE;
  p[PF1] = 3000;
  p[PF1 + 1] = 2000;
  p[PF2] = 6000;
  p[PF2 + 1] = 3000;
  p[GATE] = 1;
  return p;
}

/** A vowel's targets: [start] or [start, end] for diphthongs. Voiced, with a touch of aspiration. */
export function vowelTargets(phone: Phone, gender: Gender): Float64Array[] {
  const diphthong = DIPHTHONGS[phone];
  const shapes = diphthong
    ? [mixFormants(diphthong.from, gender), mixFormants(diphthong.to, gender)]
    : [monophthong(phone, gender)];
  return shapes.map((formants) => {
    const p = baseParams(gender, formants);
    p[AV] = 1;
    p[ASP] = 1;
    return p;
  });
}

/** The neutral, breathy tract of an in-breath. */
export function breathTarget(gender: Gender): Float64Array {
  const p = baseParams(gender, gender === 'male' ? [500, 1500, 2500] : [580, 1700, 2900]);
  p.set([250, 300, 400, 500, 500], B1);
  p[ASP] = 4;
  return p;
}

/**
 * A stop's closure: the tract is shut, so the vowel before it stops sounding at once instead of ringing on;
 * voiced stops keep a faint voice bar (heard through the throat walls).
 */
function stopClosure(gender: Gender, locus: Formants, voiced: boolean): Float64Array {
  const closure = baseParams(gender, locus);
  closure[AV] = voiced ? 0.3 : 0;
  closure[GATE] = voiced ? 0.15 : 0;
  return closure;
}

/**
 * A voiceless stop's aspiration: breath noise (no voicing) through the tract half-way from the stop's locus to
 * the vowel (a locus equation with slope 0.5), F1 damped by the open glottis.
 */
export function aspirationTarget(release: Float64Array, vowel: Float64Array): Float64Array {
  const p = vowel.slice();
  for (let f = 0; f < 3; f++) p[F1 + f] = ((release[F1 + f] ?? 0) + (vowel[F1 + f] ?? 0)) / 2;
  p[B1] = 250;
  p[AV] = 0;
  p[ASP] = ASPIRATION;
  p[FRIC] = 0;
  p[GATE] = 1;
  return p;
}

export interface ConsonantTargets {
  /** Plosive/affricate closure (silence, or a voice bar if voiced); absent for continuants. */
  closure?: Float64Array;
  /** The sounding part: burst (+ aspiration), frication, murmur or formant target. */
  release: Float64Array;
}

/**
 * Targets for a consonant. `next` is the following vowel's start target: /h/ takes its formants (the
 * aspiration is shaped by the vowel to come) and unvoiced plosives aspirate through them.
 */
export function consonantTargets(spec: ConsonantSpec, gender: Gender): ConsonantTargets {
  const scale = gender === 'female' ? FEMALE_SCALE : 1;
  const locus: Formants = [spec.locus[0] * scale, spec.locus[1] * scale, spec.locus[2] * scale];
  const release = baseParams(gender, locus);
  if (spec.noise) {
    release.set(spec.noise.bands, PF1);
    release[BYPASS] = spec.noise.bypass;
    release[FRIC] = spec.noiseLevel ?? 0;
  }
  switch (spec.cls) {
    case 'plosive': {
      const closure = stopClosure(gender, locus, spec.voiced);
      release[AV] = spec.voiced ? 0.3 : 0;
      release[ASP] = spec.voiced ? 0 : 3;
      return { closure, release };
    }
    case 'affricate': {
      const closure = stopClosure(gender, locus, spec.voiced);
      release[AV] = spec.voiced ? 0.3 : 0;
      return { closure, release };
    }
    case 'fricative':
      release[AV] = spec.voiced ? 0.3 : 0;
      return { release };
    case 'aspirate':
      release[ASP] = ASPIRATION;
      return { release };
    case 'nasal':
      release.set([100, 250, 400], B1);
      release[FNZ] = spec.zero ?? 1000;
      release[AV] = 0.7;
      return { release };
    case 'liquid':
    case 'glide':
      release[AV] = 0.75;
      release[ASP] = 0.5;
      return { release };
  }
}
