/**
 * The family of every patch of PATCHES (engine/types.ts): how it is played (the compose stage strums guitars,
 * pedals pianos, humanizes each family by its own amount) and whether it is a synthesizer (the interpret stage
 * drops synthesizers nobody asked for from an acoustic request). One table, so the stages agree.
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
  piano: 'piano',
  brightPiano: 'piano',
  rhodes: 'piano',
  organ: 'keys',
  rockOrgan: 'keys',
  churchOrgan: 'keys',
  harpsichord: 'keys',
  clavinet: 'keys',
  accordion: 'keys',
  bandoneon: 'keys',
  guitar: 'guitar',
  nylonGuitar: 'guitar',
  cleanGuitar: 'guitar',
  jazzGuitar: 'guitar',
  mutedGuitar: 'guitar',
  overdriveGuitar: 'guitar',
  distGuitar: 'guitar',
  banjo: 'guitar',
  mandolin: 'guitar',
  ukulele: 'guitar',
  sitar: 'plucked',
  koto: 'plucked',
  harp: 'plucked',
  marimba: 'plucked',
  vibraphone: 'plucked',
  xylophone: 'plucked',
  glockenspiel: 'plucked',
  celesta: 'plucked',
  tubularBells: 'plucked',
  musicBox: 'plucked',
  kalimba: 'plucked',
  steelDrums: 'plucked',
  timpani: 'plucked',
  strings: 'bowed',
  slowStrings: 'bowed',
  violin: 'bowed',
  viola: 'bowed',
  cello: 'bowed',
  contrabass: 'bowed',
  fiddle: 'bowed',
  pizzicatoStrings: 'plucked',
  tremoloStrings: 'bowed',
  brass: 'wind',
  trumpet: 'wind',
  mutedTrumpet: 'wind',
  trombone: 'wind',
  frenchHorn: 'wind',
  tuba: 'wind',
  sopranoSax: 'wind',
  altoSax: 'wind',
  tenorSax: 'wind',
  baritoneSax: 'wind',
  clarinet: 'wind',
  oboe: 'wind',
  bassoon: 'wind',
  flute: 'wind',
  piccolo: 'wind',
  recorder: 'wind',
  whistle: 'wind',
  panFlute: 'wind',
  harmonica: 'wind',
  choir: 'voice',
  voiceOohs: 'voice',
  voice: 'voice',
  acousticBass: 'bass',
  fingerBass: 'bass',
  pickedBass: 'bass',
  fretlessBass: 'bass',
  slapBass: 'bass',
  subBass: 'synthBass',
  tr808Bass: 'synthBass',
  acidBass: 'synthBass',
  reeseBass: 'synthBass',
  synthBass: 'synthBass',
  acousticKit: 'acousticKit',
  roomKit: 'acousticKit',
  powerKit: 'acousticKit',
  jazzKit: 'acousticKit',
  brushKit: 'acousticKit',
  orchestralPerc: 'acousticKit',
  lofiKit: 'acousticKit',
  electronicKit: 'electronicKit',
  trapKit: 'electronicKit',
  chipKit: 'electronicKit',
  rain: 'texture',
  vinyl: 'texture',
  ocean: 'texture',
  wind: 'texture',
};

/** The family of a patch; unknown names (a synth added later) count as synths. */
export function familyOf(instrument: string | undefined): Family {
  return (instrument !== undefined ? FAMILIES[instrument] : undefined) ?? 'synth';
}

/** Synthesizers: the pads, leads, plucks, bells and basses made by oscillators rather than played from samples. */
export function isSynth(instrument: string): boolean {
  const family = familyOf(instrument);
  return family === 'synth' || family === 'synthBass';
}
