/**
 * How an instrument is played, by family: the compose stage strums guitars, pedals pianos, bows or plucks
 * strings and humanizes each family by its own amount. Patch names are those of engine/types.ts PATCHES.
 */

export type Family =
  | 'guitar'
  | 'piano'
  | 'keys'
  | 'bowed'
  | 'plucked'
  | 'wind'
  | 'voice'
  | 'synth'
  | 'bass'
  | 'synthBass'
  | 'acousticKit'
  | 'electronicKit'
  | 'texture';

const FAMILIES: Record<string, Family> = {
  piano: 'piano', brightPiano: 'piano', rhodes: 'piano',
  organ: 'keys', rockOrgan: 'keys', churchOrgan: 'keys', harpsichord: 'keys', clavinet: 'keys', accordion: 'keys', bandoneon: 'keys',
  guitar: 'guitar', nylonGuitar: 'guitar', cleanGuitar: 'guitar', jazzGuitar: 'guitar', mutedGuitar: 'guitar', overdriveGuitar: 'guitar',
  distGuitar: 'guitar', banjo: 'guitar', mandolin: 'guitar', ukulele: 'guitar',
  sitar: 'plucked', koto: 'plucked', harp: 'plucked', marimba: 'plucked', vibraphone: 'plucked', xylophone: 'plucked',
  glockenspiel: 'plucked', celesta: 'plucked', tubularBells: 'plucked', musicBox: 'plucked', kalimba: 'plucked', steelDrums: 'plucked',
  timpani: 'plucked',
  strings: 'bowed', slowStrings: 'bowed', violin: 'bowed', viola: 'bowed', cello: 'bowed', contrabass: 'bowed', fiddle: 'bowed',
  pizzicatoStrings: 'plucked', tremoloStrings: 'bowed',
  brass: 'wind', trumpet: 'wind', mutedTrumpet: 'wind', trombone: 'wind', frenchHorn: 'wind', tuba: 'wind', sopranoSax: 'wind',
  altoSax: 'wind', tenorSax: 'wind', baritoneSax: 'wind', clarinet: 'wind', oboe: 'wind', bassoon: 'wind', flute: 'wind',
  piccolo: 'wind', recorder: 'wind', whistle: 'wind', panFlute: 'wind', harmonica: 'wind',
  choir: 'voice', voiceOohs: 'voice', voice: 'voice',
  acousticBass: 'bass', fingerBass: 'bass', pickedBass: 'bass', fretlessBass: 'bass', slapBass: 'bass',
  subBass: 'synthBass', acidBass: 'synthBass', reeseBass: 'synthBass', synthBass: 'synthBass',
  acousticKit: 'acousticKit', roomKit: 'acousticKit', powerKit: 'acousticKit', jazzKit: 'acousticKit', brushKit: 'acousticKit',
  orchestralPerc: 'acousticKit', lofiKit: 'acousticKit',
  electronicKit: 'electronicKit', trapKit: 'electronicKit', chipKit: 'electronicKit',
  rain: 'texture', vinyl: 'texture', ocean: 'texture', wind: 'texture',
};

/** The family of a patch; unknown names (a synth added later) count as synths. */
export function familyOf(instrument: string | undefined): Family {
  return (instrument !== undefined ? FAMILIES[instrument] : undefined) ?? 'synth';
}

/** Strings in the order a downstroke hits them (MIDI notes of the open strings). */
const TUNINGS: Record<string, readonly number[]> = {
  banjo: [67, 50, 55, 59, 62],
  mandolin: [55, 62, 69, 76],
  ukulele: [67, 60, 64, 69],
};
const STANDARD_TUNING = [40, 45, 50, 55, 59, 64] as const;

export function tuningOf(instrument: string): readonly number[] {
  return TUNINGS[instrument] ?? STANDARD_TUNING;
}

/** Overdriven guitars play power chords: the root and fifth (a full triad through distortion is mud). */
export function playsPowerChords(instrument: string): boolean {
  return instrument === 'distGuitar' || instrument === 'overdriveGuitar';
}

/** Bowed strings that can also be plucked or bowed tremolo. */
export function isBowed(instrument: string | undefined): boolean {
  return familyOf(instrument) === 'bowed' && instrument !== 'tremoloStrings';
}
