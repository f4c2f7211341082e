/**
 * Roman-numeral chord symbols (the grammar is documented in engine/presets.ts) parsed into pitch classes.
 * Degrees count from the tonic of the MAJOR scale in every mode, so "bVII" is always 10 semitones up.
 * "X/Y" (a secondary chord: V/V) is accepted too: X is built on the degree Y instead of on the tonic.
 */
import { mod } from './pitch.ts';

export interface ParsedChord {
  symbol: string;
  /** Pitch class of the root, 0–11. */
  root: number;
  /** Chord pitch classes, root first, in stacking order (root, third, fifth, seventh, ninth). */
  pitchClasses: number[];
  /** Semitones above the root, same order as pitchClasses. */
  intervals: number[];
  /** Whether the chord has a minor third (for cadence and tonic detection). */
  minor: boolean;
}

const NUMERALS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'] as const;
const MAJOR_DEGREES = [0, 2, 4, 5, 7, 9, 11] as const;
const SYMBOL = /^(b|#)?(VII|VI|V|IV|III|II|I|vii|vi|v|iv|iii|ii|i)(7|maj7|9|add9|sus2|sus4|dim|aug|m7b5)?$/;

/** Semitones above the root for each suffix; `upper` says whether the numeral was upper case. */
function intervalsFor(suffix: string, upper: boolean): number[] {
  const third = upper ? 4 : 3;
  switch (suffix) {
    case '':
      return [0, third, 7];
    case '7':
      return [0, third, 7, 10];
    case 'maj7':
      return [0, third, 7, 11];
    case '9':
      return [0, third, 7, 10, 14];
    case 'add9':
      return [0, third, 7, 14];
    case 'sus2':
      return [0, 2, 7];
    case 'sus4':
      return [0, 5, 7];
    case 'dim':
      return [0, 3, 6];
    case 'aug':
      return [0, 4, 8];
    case 'm7b5':
      return [0, 3, 6, 10];
    default:
      throw new RangeError(`Unknown chord suffix "${suffix}"`);
  }
}

function parseSimple(symbol: string): { offset: number; intervals: number[] } {
  const match = SYMBOL.exec(symbol);
  if (!match) throw new RangeError(`Not a roman-numeral chord symbol: "${symbol}"`);
  const [, accidental = '', numeral = '', suffix = ''] = match;
  const degree = NUMERALS.indexOf(numeral.toUpperCase() as (typeof NUMERALS)[number]);
  const shift = accidental === 'b' ? -1 : accidental === '#' ? 1 : 0;
  const upper = numeral === numeral.toUpperCase();
  return { offset: (MAJOR_DEGREES[degree] ?? 0) + shift, intervals: intervalsFor(suffix, upper) };
}

/** Parses a symbol in the key whose tonic is `tonic` (0–11). Throws RangeError on anything outside the grammar. */
export function parseRoman(symbol: string, tonic: number): ParsedChord {
  const [head = '', of] = symbol.split('/');
  const base = of === undefined ? 0 : parseSimple(of).offset;
  const { offset, intervals } = parseSimple(head);
  const root = mod(tonic + base + offset, 12);
  return {
    symbol,
    root,
    pitchClasses: intervals.map((i) => mod(root + i, 12)),
    intervals,
    minor: intervals[1] === 3,
  };
}

/** Whether a chord is a tonic chord of the key (root on the tonic). */
export function isTonicChord(chord: ParsedChord, tonic: number): boolean {
  return chord.root === mod(tonic, 12);
}
