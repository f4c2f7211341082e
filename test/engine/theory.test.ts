import test from 'ava';
import { parseRoman } from '../../engine/theory/roman.ts';
import { chordScale, isMinorMode, scaleOf } from '../../engine/theory/scales.ts';
import { nearestWithPitchClass, pitchClassOf } from '../../engine/theory/pitch.ts';
import {
  candidateVoicings,
  isParallelPerfect,
  movementCost,
  playedPitchClasses,
} from '../../engine/theory/voicings.ts';
import { CHORD_SYMBOL } from '../../engine/presets.ts';

const C = 0;
const A = 9;

test('upper-case numerals are major triads and lower-case ones minor, on major-scale degrees', (t) => {
  t.deepEqual(parseRoman('I', C).pitchClasses, [0, 4, 7]);
  t.deepEqual(parseRoman('ii', C).pitchClasses, [2, 5, 9]);
  t.deepEqual(parseRoman('V', C).pitchClasses, [7, 11, 2]);
  t.deepEqual(parseRoman('vi', C).pitchClasses, [9, 0, 4]);
});

test('flat numerals sit a semitone below the major-scale degree (bVII, bVI, bIII in minor)', (t) => {
  t.deepEqual(parseRoman('bVII', A).pitchClasses, [7, 11, 2]); // G major in A minor
  t.deepEqual(parseRoman('bVI', A).pitchClasses, [5, 9, 0]); // F major
  t.deepEqual(parseRoman('bIII', A).pitchClasses, [0, 4, 7]); // C major
  t.is(parseRoman('#iv', C).root, 6);
});

test('sevenths follow the case: V7 is dominant, ii7 minor, Imaj7 major seventh', (t) => {
  t.deepEqual(parseRoman('V7', C).pitchClasses, [7, 11, 2, 5]);
  t.deepEqual(parseRoman('ii7', C).pitchClasses, [2, 5, 9, 0]);
  t.deepEqual(parseRoman('Imaj7', C).pitchClasses, [0, 4, 7, 11]);
});

test('suffixes sus2, sus4, add9, 9, dim, aug and m7b5 give their intervals', (t) => {
  t.deepEqual(parseRoman('Isus2', C).intervals, [0, 2, 7]);
  t.deepEqual(parseRoman('Vsus4', C).intervals, [0, 5, 7]);
  t.deepEqual(parseRoman('IVadd9', C).intervals, [0, 4, 7, 14]);
  t.deepEqual(parseRoman('ii9', C).intervals, [0, 3, 7, 10, 14]);
  t.deepEqual(parseRoman('viidim', C).pitchClasses, [11, 2, 5]);
  t.deepEqual(parseRoman('IIIaug', C).intervals, [0, 4, 8]);
  t.deepEqual(parseRoman('iim7b5', A).pitchClasses, [11, 2, 5, 9]);
});

test('a secondary chord V/V is built on the fifth degree', (t) => {
  t.deepEqual(parseRoman('V/V', C).pitchClasses, [2, 6, 9]);
});

test('symbols outside the grammar are rejected', (t) => {
  t.throws(() => parseRoman('VIII', C), { instanceOf: RangeError });
  t.throws(() => parseRoman('V13', C), { instanceOf: RangeError });
  t.throws(() => parseRoman('', C), { instanceOf: RangeError });
});

test('the parser accepts exactly the preset validator grammar for every numeral and suffix', (t) => {
  for (const accidental of ['', 'b', '#']) {
    for (const numeral of ['I', 'ii', 'III', 'iv', 'V', 'vi', 'VII']) {
      for (const suffix of ['', '7', 'maj7', '9', 'add9', 'sus2', 'sus4', 'dim', 'aug', 'm7b5']) {
        const symbol = accidental + numeral + suffix;
        t.true(CHORD_SYMBOL.test(symbol));
        t.notThrows(() => parseRoman(symbol, C), symbol);
      }
    }
  }
});

test('scales start on the tonic and follow the mode', (t) => {
  t.deepEqual(scaleOf(pitchClassOf('D'), 'dorian'), [2, 4, 5, 7, 9, 11, 0]);
  t.deepEqual(scaleOf(A, 'harmonicMinor'), [9, 11, 0, 2, 4, 5, 8]);
  t.true(isMinorMode('phrygian'));
  t.false(isMinorMode('mixolydian'));
});

test('a chord tone outside the scale replaces its neighbour in the chord scale (G# over E in A minor)', (t) => {
  const aMinor = scaleOf(A, 'minor');
  const scale = chordScale(aMinor, parseRoman('V', A).pitchClasses);
  t.true(scale.includes(8));
  t.false(scale.includes(7));
  t.is(scale.length, 7);
});

test('nearestWithPitchClass finds the closest octave of a pitch class', (t) => {
  t.is(nearestWithPitchClass(0, 65), 60);
  t.is(nearestWithPitchClass(0, 67), 72);
});

test('nine-chords are voiced in four voices without the fifth', (t) => {
  const chord = parseRoman('ii9', C);
  t.deepEqual(playedPitchClasses(chord.pitchClasses, chord.intervals), [2, 5, 0, 4]);
});

test('candidate voicings contain every chord tone once and stay in the register', (t) => {
  const voicings = candidateVoicings([0, 4, 7, 11], 48, 76);
  t.true(voicings.length >= 4);
  for (const v of voicings) {
    t.deepEqual(
      [...new Set(v.map((m) => m % 12))].sort((a, b) => a - b),
      [0, 4, 7, 11],
    );
    t.true(v[0]! >= 48 && v[v.length - 1]! <= 76);
  }
});

test('movement cost counts semitones moved by matched voices', (t) => {
  t.is(movementCost([60, 64, 67], [60, 65, 69]), 3);
});

test('parallel fifths and octaves in similar motion are detected; contrary or oblique motion is not', (t) => {
  t.true(isParallelPerfect(48, 55, 50, 57)); // fifth to fifth, both up
  t.true(isParallelPerfect(48, 72, 46, 70)); // octave to octave, both down
  t.false(isParallelPerfect(48, 55, 50, 53)); // contrary
  t.false(isParallelPerfect(48, 55, 48, 57)); // bass holds
  t.false(isParallelPerfect(48, 52, 50, 54)); // parallel thirds are fine
});

test('a flat chord tone replaces the note above it (Bb over bVII in C major)', (t) => {
  const scale = chordScale(scaleOf(C, 'major'), parseRoman('bVII', C).pitchClasses);
  t.deepEqual(scale, [0, 2, 4, 5, 7, 9, 10]);
});

test('a raised chord tone replaces the note below it (F# over V/V in C major)', (t) => {
  const scale = chordScale(scaleOf(C, 'major'), parseRoman('V/V', C).pitchClasses);
  t.deepEqual(scale, [0, 2, 4, 6, 7, 9, 11]);
});
