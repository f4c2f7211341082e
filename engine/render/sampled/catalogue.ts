/**
 * The sampled instruments: which General MIDI preset of the bundled SoundFont plays each patch name, and how
 * the mixer holds and releases its notes. The bank is MuseScore_General_Lite (see NOTICE); bank numbers are
 * its variation banks (8 = variation, 16 = mandolin, 20/30/40/50 = violins/violas/celli/basses sections).
 */
import type { Articulation } from '../../types.ts';

export interface BankPreset {
  /** SoundFont bank (MIDI CC0) and program; drum kits are programs of the percussion bank. */
  bank: number;
  program: number;
}

export interface SampledInstrument extends BankPreset {
  /**
   * How a held note continues: 'loop' for sustaining sounds (bowed, blown, organ: the mixer loops a settled
   * stretch of the rendered note), or the seconds after which a decaying sound (struck, plucked) has died away.
   */
  hold: 'loop' | number;
  /** Seconds of fade after the note's end: the damper, the bow or breath stopping. */
  release: number;
  /** Level trim in dB after calibration (perceived balance between instruments). */
  trimDb: number;
  /** A typical pitch of the instrument, where its level is calibrated. */
  centre: number;
  /**
   * Decibels a second a held note falls after its attack, for a plucked string whose bank sample sustains at one
   * level as a bowed one does (the bank's driven guitars): held flat, a guitar's long notes sound like a fiddle's.
   */
  decayDb?: number;
  /** Other ways of playing it, each another preset of the bank ("pizzicato" strings). */
  articulations?: Partial<Record<Articulation, SampledInstrument>>;
}

/** A drum kit: a program of the bank's percussion presets, played by General MIDI drum keys. */
export interface SampledKit extends BankPreset {
  /** Level trim in dB after calibration (every kit's snare is calibrated to the same peak). */
  trimDb?: number;
  /**
   * Kits whose toms are timpani (the orchestral kit tunes keys 41–53 chromatically from F2): the low toms play
   * the key's tonic and the high toms its dominant, so the drums never pull the music into another key (fixed
   * A and D timpani made a C major theme sound like A minor).
   */
  timpani?: { lowestKey: number; lowestPitchClass: number };
}

const gm = (program: number, bank = 0): BankPreset => ({ bank, program });

const decaying = (
  program: number,
  hold: number,
  release: number,
  centre: number,
  extra: Partial<SampledInstrument> = {},
): SampledInstrument => ({
  ...gm(program),
  hold,
  release,
  trimDb: 0,
  centre,
  ...extra,
});
const sustaining = (
  program: number,
  release: number,
  centre: number,
  extra: Partial<SampledInstrument> = {},
): SampledInstrument => ({
  ...gm(program),
  hold: 'loop',
  release,
  trimDb: 0,
  centre,
  ...extra,
});

/** Pizzicato and tremolo of a string section; bank 0 is the full section, 20/30/40/50 violins … basses alone. */
const bowedVariants = (bank: number, centre: number) => ({
  pizzicato: decaying(45, 1.2, 0.1, centre, { bank }),
  tremolo: sustaining(44, 0.3, centre, { bank }),
});
const guitarMutes = { muted: decaying(28, 0.8, 0.05, 52) };
/** A palm-muted chug on a driven guitar is the same distorted sound, damped at once. */
const drivenMutes = (program: number) => ({ muted: decaying(program, 0.3, 0.04, 52) });

export const SAMPLED_INSTRUMENTS = {
  piano: decaying(0, 5, 0.3, 60),
  brightPiano: decaying(1, 5, 0.3, 60),
  rhodes: decaying(4, 4.5, 0.35, 60),
  organ: sustaining(16, 0.08, 60),
  rockOrgan: sustaining(18, 0.08, 60),
  churchOrgan: sustaining(19, 0.6, 60),
  harpsichord: decaying(6, 3, 0.2, 64),
  clavinet: decaying(7, 2, 0.08, 60),
  accordion: sustaining(21, 0.1, 64),
  bandoneon: sustaining(23, 0.1, 64),
  harmonica: sustaining(22, 0.1, 68),

  guitar: decaying(25, 3.5, 0.25, 55, { articulations: guitarMutes }),
  nylonGuitar: decaying(24, 3.5, 0.25, 55, { articulations: guitarMutes }),
  cleanGuitar: decaying(27, 3.5, 0.2, 57, { articulations: guitarMutes }),
  jazzGuitar: decaying(26, 3, 0.2, 57, { articulations: guitarMutes }),
  mutedGuitar: decaying(28, 0.8, 0.05, 52),
  overdriveGuitar: sustaining(29, 0.15, 55, { decayDb: 6, articulations: drivenMutes(29) }),
  distGuitar: sustaining(30, 0.15, 52, { decayDb: 3, articulations: drivenMutes(30) }),
  banjo: decaying(105, 2.5, 0.15, 62),
  mandolin: decaying(25, 2, 0.15, 67, { bank: 16 }),
  ukulele: decaying(24, 2, 0.15, 64, { bank: 8 }),
  sitar: decaying(104, 4, 0.3, 60),
  koto: decaying(107, 3, 0.25, 64),
  harp: decaying(46, 4, 0.4, 60),

  marimba: decaying(12, 1.5, 0.1, 64),
  vibraphone: decaying(11, 4, 0.3, 67),
  xylophone: decaying(13, 1, 0.08, 76),
  glockenspiel: decaying(9, 2.5, 0.2, 84),
  celesta: decaying(8, 2.5, 0.2, 76),
  tubularBells: decaying(14, 5, 0.6, 67),
  musicBox: decaying(10, 3, 0.3, 79),
  kalimba: decaying(108, 2, 0.2, 67),
  steelDrums: decaying(114, 2, 0.2, 67),
  timpani: decaying(47, 3, 0.4, 45),

  strings: sustaining(48, 0.35, 60, { articulations: bowedVariants(0, 60) }),
  slowStrings: sustaining(49, 0.6, 60, { articulations: bowedVariants(0, 60) }),
  pizzicatoStrings: decaying(45, 1.2, 0.1, 60),
  tremoloStrings: sustaining(44, 0.3, 60),
  violin: sustaining(40, 0.3, 72, { articulations: bowedVariants(20, 72) }),
  viola: sustaining(41, 0.3, 62, { articulations: bowedVariants(30, 62) }),
  cello: sustaining(42, 0.35, 50, { articulations: bowedVariants(40, 50) }),
  contrabass: sustaining(43, 0.35, 38, { articulations: bowedVariants(50, 38) }),
  fiddle: sustaining(110, 0.2, 72),

  brass: sustaining(61, 0.2, 60),
  trumpet: sustaining(56, 0.15, 70),
  mutedTrumpet: sustaining(59, 0.15, 70),
  trombone: sustaining(57, 0.2, 55),
  frenchHorn: sustaining(60, 0.3, 58),
  tuba: sustaining(58, 0.2, 40),

  sopranoSax: sustaining(64, 0.12, 72),
  altoSax: sustaining(65, 0.12, 65),
  tenorSax: sustaining(66, 0.12, 58),
  baritoneSax: sustaining(67, 0.12, 48),
  clarinet: sustaining(71, 0.12, 65),
  oboe: sustaining(68, 0.12, 72),
  bassoon: sustaining(70, 0.15, 48),
  flute: sustaining(73, 0.15, 77),
  piccolo: sustaining(72, 0.12, 88),
  recorder: sustaining(74, 0.1, 77),
  whistle: sustaining(78, 0.1, 84),
  panFlute: sustaining(75, 0.2, 74),

  choir: sustaining(52, 0.45, 64),
  voiceOohs: sustaining(53, 0.45, 64),

  acousticBass: decaying(32, 3, 0.12, 40),
  fingerBass: decaying(33, 4, 0.1, 40),
  pickedBass: decaying(34, 4, 0.1, 40),
  fretlessBass: decaying(35, 4, 0.15, 40),
  slapBass: decaying(36, 2.5, 0.08, 40),
} as const satisfies Record<string, SampledInstrument>;

export type SampledInstrumentName = keyof typeof SAMPLED_INSTRUMENTS;

/** Acoustic kits of the bank's percussion presets (GM drum keys; DRUM_MIDI is the default mapping). */
export const SAMPLED_KITS = {
  acousticKit: gm(0),
  roomKit: gm(8),
  powerKit: gm(16),
  jazzKit: gm(32),
  brushKit: gm(40),
  // An orchestra's percussion sits at the back, well under a band's kit.
  orchestralPerc: { ...gm(48), trimDb: -6, timpani: { lowestKey: 41, lowestPitchClass: 5 } },
} as const satisfies Record<string, SampledKit>;

export type SampledKitName = keyof typeof SAMPLED_KITS;
