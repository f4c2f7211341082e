/**
 * Explicit musical values written in the prompt ("92 bpm", "in F# minor", "6/8", "a song about the sea").
 * They beat anything inferred, so they are pulled out first and blanked from the text: "F# minor" must not
 * later read as a mood word, nor "no drums" as a wish for drums.
 */
import { at, defined } from '../checked.ts';
import type { Mode, PitchClass } from '../types.ts';

export interface Explicit {
  bpm: number | null;
  /** The bpm as written before clamping, for the trace. */
  bpmWritten: number | null;
  tonic: PitchClass | null;
  mode: Mode | null;
  meter: { beatsPerBar: number; beatUnit: number } | null;
  /** Words after "about" ("a song about summer love" -> "summer love"). */
  about: string | null;
  /** What each extraction matched, in prompt order, for the trace. */
  found: { source: string; kind: 'bpm' | 'key' | 'mode' | 'meter' | 'about' }[];
  /** The prompt with the matched spans replaced by boundaries. */
  rest: string;
}

export const MIN_BPM = 40;
export const MAX_BPM = 220;

/** Natural-note semitones; sharps/flats move from here. */
const NATURAL: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
/** The PitchClass spelling of each semitone: sharps for C#/F#, flats for Eb/Ab/Bb (the union in types.ts). */
const SPELLING: readonly PitchClass[] = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

/** Spells a written tonic ("Db", "a#", "E sharp", "C♭") into the PitchClass union (Db -> C#, A# -> Bb, Cb -> B). */
export function spellTonic(letter: string, accidental: string | undefined): PitchClass {
  const base = NATURAL[letter.toUpperCase()];
  if (base === undefined) throw new RangeError(`Not a note letter: ${letter}`);
  const acc = (accidental ?? '').trim().toLowerCase();
  const shift =
    acc === '#' || acc === '♯' || acc === 'sharp' ? 1 : acc === 'b' || acc === '♭' || acc === 'flat' ? -1 : 0;
  return at(SPELLING, (base + shift + 12) % 12);
}

const MODE_WORDS: Record<string, Mode> = {
  major: 'major',
  maj: 'major',
  ionian: 'major',
  minor: 'minor',
  min: 'minor',
  m: 'minor',
  aeolian: 'minor',
  dorian: 'dorian',
  mixolydian: 'mixolydian',
  lydian: 'lydian',
  phrygian: 'phrygian',
  'harmonic minor': 'harmonicMinor',
};
/** The mode a matched mode word names; the patterns only match words listed in MODE_WORDS. */
const modeNamed = (word: string): Mode => defined(MODE_WORDS[word.toLowerCase()], `a mode for "${word}"`);

const BPM_PATTERNS: RegExp[] = [
  /\b(\d{2,3}(?:\.\d+)?)\s*-?\s*(?:bpm|b\.p\.m\.?|beats per minute|beats a minute)/i,
  /\b(?:tempo|bpm)\s*(?:of|at|=|:|is)?\s*(\d{2,3}(?:\.\d+)?)\b/i,
];

const ACC = '(#|♯|b|♭|\\s?sharp|\\s?flat)?';
/** "F# minor", "Bb major", "D dorian", "A harmonic minor" (a letter in either case, spelled-out mode). */
const KEY_WITH_MODE = new RegExp(
  `(^|[^\\p{L}\\p{N}])([A-Ga-g])${ACC}\\s*(harmonic minor|major|minor|maj|min|dorian|mixolydian|lydian|phrygian|aeolian|ionian)(?![\\p{L}])`,
  'u',
);
/** "C#m", "Am", "Ebm" (upper-case letter only: "am" is a word). */
const KEY_SHORT_MINOR = /(^|[^\p{L}\p{N}])([A-G])(#|♯|b|♭)?m(?![\p{L}\p{N}])/u;
/** "key of D", "in the key of Eb". */
const KEY_OF = new RegExp(`\\bkey of\\s+([A-Ga-g])${ACC}(?![\\p{L}\\p{N}])`, 'iu');
/** "minor key", "in a major key": a mode with no tonic. */
const MODE_KEY = /\b(?:in\s+a\s+)?(major|minor)\s+(?:key|tonality|scale)\b/i;
/** "lydian", "in dorian mode": a church mode named without a tonic (kept in the text; a tonic may precede it). */
const MODE_ALONE = /\b(dorian|lydian|mixolydian|phrygian|harmonic minor)\b/i;
const METER = /(?<![\d/])([2-9]|1[0-2])\s*\/\s*(4|8)(?![\d/])/;
const METER_WORDS: [RegExp, { beatsPerBar: number; beatUnit: number }][] = [
  [/\bwaltz(?:es|ing)?\b/i, { beatsPerBar: 3, beatUnit: 4 }],
  [/\b(?:triple meter|three four time|in three)\b/i, { beatsPerBar: 3, beatUnit: 4 }],
  [/\b(?:six eight|compound time|jig)\b/i, { beatsPerBar: 6, beatUnit: 8 }],
];
const ABOUT =
  /\babout\s+([\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,5}?)(?=\s*$|\s*[,.;:!?|]|\s+(?:with|in|at|for|and|but|using|featuring|that|which|on|over)\b)/iu;

/** Pulls explicit values out of a prompt. */
export function extractExplicit(prompt: string): Explicit {
  let rest = prompt;
  const found: Explicit['found'] = [];
  const blank = (match: RegExpExecArray, from = 0): void => {
    const start = match.index + from;
    const end = match.index + match[0].length;
    rest = `${rest.slice(0, start)} | ${rest.slice(end)}`;
  };

  let bpm: number | null = null;
  let bpmWritten: number | null = null;
  for (const pattern of BPM_PATTERNS) {
    const match = pattern.exec(rest);
    if (!match) continue;
    bpmWritten = Number(match[1]);
    bpm = Math.round(Math.min(MAX_BPM, Math.max(MIN_BPM, bpmWritten)));
    found.push({ source: match[0].trim(), kind: 'bpm' });
    blank(match);
    break;
  }

  let meter: Explicit['meter'] = null;
  const meterMatch = METER.exec(rest);
  if (meterMatch) {
    meter = { beatsPerBar: Number(meterMatch[1]), beatUnit: Number(meterMatch[2]) };
    found.push({ source: meterMatch[0], kind: 'meter' });
    blank(meterMatch);
  } else {
    // Meter words stay in the text: "waltz" is also a genre word.
    for (const [pattern, value] of METER_WORDS) {
      const match = pattern.exec(rest);
      if (match) {
        meter = value;
        found.push({ source: match[0], kind: 'meter' });
        break;
      }
    }
  }

  let tonic: PitchClass | null = null;
  let mode: Mode | null = null;
  const modeKey = MODE_KEY.exec(rest);
  if (modeKey) {
    mode = modeNamed(at(modeKey, 1));
    found.push({ source: modeKey[0].trim(), kind: 'mode' });
    blank(modeKey);
  }
  const modeAlone = MODE_ALONE.exec(rest);
  if (modeAlone && !mode) {
    mode = modeNamed(at(modeAlone, 1));
    found.push({ source: modeAlone[0].trim(), kind: 'mode' });
  }
  const keyWithMode = KEY_WITH_MODE.exec(rest);
  // A lower-case single letter is only a key after "in"/"key of" ("in a minor"); "a major hit" is English.
  const lowerLetterOk = (m: RegExpExecArray): boolean =>
    m[2] === at(m, 2).toUpperCase() || /\b(?:in|key of)\s*$/i.test(rest.slice(0, m.index + at(m, 1).length));
  if (keyWithMode && lowerLetterOk(keyWithMode)) {
    const before = at(keyWithMode, 1).length;
    tonic = spellTonic(at(keyWithMode, 2), keyWithMode[3]);
    mode = modeNamed(at(keyWithMode, 4));
    found.push({ source: keyWithMode[0].slice(before).trim(), kind: 'key' });
    blank(keyWithMode, before);
  } else {
    const short = KEY_SHORT_MINOR.exec(rest);
    if (short) {
      const before = at(short, 1).length;
      tonic = spellTonic(at(short, 2), short[3]);
      mode = 'minor';
      found.push({ source: short[0].slice(before).trim(), kind: 'key' });
      blank(short, before);
    } else {
      const keyOf = KEY_OF.exec(rest);
      if (keyOf) {
        tonic = spellTonic(at(keyOf, 1), keyOf[2]);
        found.push({ source: keyOf[0].trim(), kind: 'key' });
        blank(keyOf);
      }
    }
  }

  let about: string | null = null;
  const aboutMatch = ABOUT.exec(rest);
  if (aboutMatch) {
    about = at(aboutMatch, 1).trim().replace(/\s+/g, ' ');
    found.push({ source: `about ${about}`, kind: 'about' });
    // The topic words stay in the text: "a song about rain" should still bring the rain.
  }
  return { bpm, bpmWritten, tonic, mode, meter, about, found, rest };
}
