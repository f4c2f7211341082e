/**
 * What makes an asked key heard (issue 16's key figure), judged on the Score: a half cadence does not play its
 * chord twice, a minor tonic triad doubles its third above the lowest voice, a guitar chop does not stand on the
 * chord's seventh. The figure itself is heard by the chroma key finder in fidelity-fields.test.ts and
 * `npm run bench:fidelity`.
 */
import test from 'ava';
import { composeWith } from '../../engine/compose/index.ts';
import { getPreset } from '../../engine/presets.ts';
import type { Mode, PitchClass, Score } from '../../engine/types.ts';
import { specFor } from './compose-fixtures.ts';

const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);
const mod = (n: number, m: number) => ((n % m) + m) % m;

function scoreOf(style: string, seed: number, mode: Mode, tonic: PitchClass = 'F#', bpm?: number): Score {
  const preset = getPreset(style);
  return composeWith(specFor(preset, { duration: 30, seed, key: { tonic, mode }, ...(bpm ? { bpm } : {}) }), preset);
}

test("punk's minor progressions never repeat a chord, and a half cadence does not make one repeat (bVII bVI -> bVI bVII)", (t) => {
  const preset = getPreset('punk');
  for (const progression of preset.progressions.minor)
    t.true(
      progression.every((s, i) => i === 0 || s !== progression[i - 1]),
      progression.join(' '),
    );
  for (const seed of SEEDS) {
    const { chords, sections } = scoreOf('punk', seed, 'minor', 'F#', 72);
    const sectionOf = (beat: number) =>
      sections.findIndex((s, i) => beat >= s.beat && beat < (sections[i + 1]?.beat ?? Infinity));
    const repeats = chords.filter(
      (c, i) =>
        i > 0 &&
        c.symbol === chords[i - 1]!.symbol &&
        sectionOf(c.beat) === sectionOf(chords[i - 1]!.beat) &&
        c.symbol !== 'i',
    );
    t.deepEqual(
      repeats.map((c) => `${c.symbol}@${c.beat}`),
      [],
      `seed ${seed}: ${chords.map((c) => c.symbol).join(' ')}`,
    );
  }
});

test('a minor tonic triad in the pad doubles its third, never as the lowest voice', (t) => {
  let tonicTriads = 0;
  let doubled = 0;
  for (const seed of SEEDS) {
    const score = scoreOf('salsa', seed, 'minor', 'C');
    const pad = score.parts.find((p) => p.role === 'pad')!;
    for (const chord of score.chords) {
      if (chord.root !== score.scale[0] || chord.pitchClasses.length !== 3) continue;
      const notes = pad.notes
        .filter((n) => Math.abs(n.beat - chord.beat) < 1e-6)
        .map((n) => n.midi)
        .sort((a, b) => a - b);
      if (notes.length === 0) continue;
      tonicTriads++;
      const third = chord.pitchClasses[1]!;
      if (notes.filter((n) => mod(n, 12) === third).length === 2) {
        doubled++;
        t.not(mod(notes[0]!, 12), third, `seed ${seed} beat ${chord.beat}: ${notes.join(' ')}`);
      }
    }
  }
  t.true(tonicTriads > 20, `${tonicTriads} tonic triads`);
  t.true(doubled / tonicTriads >= 0.5, `${doubled} of ${tonicTriads} doubled`);
});

test('a guitar chop on a seventh chord does not stand on the seventh (afrobeat F#m7 as F# A C# E, not E A C# F#)', (t) => {
  for (const seed of SEEDS) {
    const score = scoreOf('afrobeat', seed, 'minor');
    const guitar = score.parts.find((p) => p.role === 'chords')!;
    const endingBeat = score.chords[score.chords.length - 1]!.beat;
    for (const chord of score.chords) {
      if (chord.beat >= endingBeat) continue;
      const seventh = chord.pitchClasses.find((pc) => [10, 11].includes(mod(pc - chord.root, 12)));
      if (seventh === undefined) continue;
      const chop = guitar.notes
        .filter((n) => n.beat >= chord.beat && n.beat < chord.beat + chord.beats)
        .map((n) => n.midi);
      if (chop.length === 0) continue;
      t.not(mod(Math.min(...chop), 12), seventh, `seed ${seed} ${chord.symbol}@${chord.beat}`);
    }
  }
});
