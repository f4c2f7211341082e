/**
 * Where each instrument stands, seen from the audience: an orchestra's seating (violins left, violas
 * centre-left, cellos centre-right, basses right of them, woodwinds centre, brass and percussion at the back) and
 * a band's usual picture (bass and kit centre, two guitars opposite each other). A position is a pan offset added
 * to the part's own pan, and how much of the instrument reaches the room: instruments far back or made to bloom
 * in a hall (strings, choir, horns) send more to the reverb, the low end (bass, kits) very little.
 *
 * Synthesizers and anything not listed here keep the role's defaults: electronic mixes are not a stage.
 */
import type { Part, Score } from '../types.ts';

export interface StagePlace {
  /** Added to the part's pan (−1 left … 1 right). */
  pan: number;
  /** The reverb send (before spec.effects.reverb), or undefined for the role's default. */
  reverb: number | undefined;
}

const seat = (pan: number, reverb: number) => ({ pan, reverb });

const SEATS: Readonly<Record<string, StagePlace>> = {
  // Bowed strings: first violins at the conductor's left, then violas, cellos and basses to the right.
  violin: seat(-0.45, 0.6),
  fiddle: seat(-0.3, 0.45),
  viola: seat(-0.15, 0.6),
  cello: seat(0.3, 0.55),
  contrabass: seat(0.45, 0.4),
  // A whole section already spreads its notes across the stage by pitch (mix.ts).
  strings: seat(0, 0.7),
  slowStrings: seat(0, 0.75),
  tremoloStrings: seat(0, 0.7),
  pizzicatoStrings: seat(0, 0.55),
  harp: seat(-0.5, 0.6),
  // Woodwinds in the middle, behind the strings.
  flute: seat(-0.1, 0.55),
  piccolo: seat(-0.15, 0.55),
  oboe: seat(0.1, 0.55),
  clarinet: seat(-0.05, 0.55),
  bassoon: seat(0.15, 0.5),
  recorder: seat(0, 0.5),
  whistle: seat(0, 0.5),
  panFlute: seat(0, 0.6),
  // A sax section, soprano to baritone from left to right as a big band seats it.
  sopranoSax: seat(-0.25, 0.45),
  altoSax: seat(-0.15, 0.45),
  tenorSax: seat(0.15, 0.45),
  baritoneSax: seat(0.3, 0.4),
  // Brass at the back: horns left of centre, trumpets, trombones and tuba towards the right.
  brass: seat(0.05, 0.65),
  trumpet: seat(0.15, 0.6),
  mutedTrumpet: seat(0.15, 0.5),
  trombone: seat(0.25, 0.6),
  frenchHorn: seat(-0.25, 0.75),
  tuba: seat(0.35, 0.5),
  // Percussion and mallets at the very back.
  timpani: seat(0.1, 0.55),
  tubularBells: seat(0.3, 0.6),
  glockenspiel: seat(0.25, 0.55),
  xylophone: seat(0.2, 0.5),
  celesta: seat(-0.35, 0.55),
  marimba: seat(0.2, 0.45),
  vibraphone: seat(0.2, 0.45),
  // Voices behind everything, in the hall.
  choir: seat(0, 0.9),
  voiceOohs: seat(0, 0.85),
  // Keys: the piano spreads its notes itself; organs and the like sit to one side of the band.
  piano: seat(0, 0.45),
  brightPiano: seat(0, 0.4),
  rhodes: seat(-0.1, 0.4),
  organ: seat(0.2, 0.4),
  rockOrgan: seat(0.25, 0.35),
  churchOrgan: seat(0, 0.85),
  harpsichord: seat(-0.2, 0.5),
  clavinet: seat(0.15, 0.25),
  accordion: seat(-0.15, 0.4),
  bandoneon: seat(-0.15, 0.4),
  harmonica: seat(0.15, 0.35),
  // Guitars (see GUITARS for two of them) and other plucked strings.
  guitar: seat(-0.2, 0.4),
  nylonGuitar: seat(-0.2, 0.45),
  cleanGuitar: seat(-0.2, 0.35),
  jazzGuitar: seat(-0.2, 0.35),
  mutedGuitar: seat(-0.2, 0.25),
  overdriveGuitar: seat(-0.2, 0.25),
  distGuitar: seat(-0.2, 0.2),
  banjo: seat(0.3, 0.35),
  mandolin: seat(-0.3, 0.4),
  ukulele: seat(-0.2, 0.35),
  sitar: seat(0, 0.45),
  koto: seat(0, 0.45),
  // The low end stays centred and dry.
  acousticBass: seat(0, 0.06),
  fingerBass: seat(0, 0.02),
  pickedBass: seat(0, 0.02),
  fretlessBass: seat(0, 0.04),
  slapBass: seat(0, 0.02),
  // Acoustic kits: the kit itself is centred (mix.ts places its cymbals); a room kit is recorded with more room.
  acousticKit: seat(0, 0.12),
  roomKit: seat(0, 0.22),
  powerKit: seat(0, 0.15),
  jazzKit: seat(0, 0.15),
  brushKit: seat(0, 0.15),
  orchestralPerc: seat(0, 0.4),
};

/** Guitar patches: two guitar parts in one arrangement are placed opposite each other. */
const GUITARS: ReadonlySet<string> = new Set([
  'guitar',
  'nylonGuitar',
  'cleanGuitar',
  'jazzGuitar',
  'mutedGuitar',
  'overdriveGuitar',
  'distGuitar',
]);
const GUITAR_PAIR_PAN = 0.55;

const NOWHERE: StagePlace = { pan: 0, reverb: undefined };

/** Placements are looked up once per part (the mixer asks for every note). */
const cache = new WeakMap<Part, StagePlace>();

function placeOf(part: Part, score: Score): StagePlace {
  const place = SEATS[part.instrument] ?? NOWHERE;
  if (!GUITARS.has(part.instrument)) return place;
  const guitars = score.parts.filter((other) => GUITARS.has(other.instrument) && other.role !== 'vocal');
  const index = guitars.indexOf(part);
  if (guitars.length < 2 || index < 0 || index > 1) return place;
  return { pan: index === 0 ? -GUITAR_PAIR_PAN : GUITAR_PAIR_PAN, reverb: place.reverb };
}

/** The stage position of a part in its score's arrangement. */
export function stagePlace(part: Part, score: Score): StagePlace {
  let place = cache.get(part);
  if (!place) {
    place = placeOf(part, score);
    cache.set(part, place);
  }
  return place;
}
