/**
 * Every shipped style composes a score that passes the symbolic gates, in every mode the style lists,
 * for short and long tracks. One test per preset, so a failing style is named in the title.
 */
import test from 'ava';
import { composeWith } from '../../engine/compose/index.ts';
import { getPreset, listStyles } from '../../engine/presets.ts';
import type { PitchClass, Score } from '../../engine/types.ts';
import * as m from '../helpers/score-metrics.ts';
import { specFor } from './compose-fixtures.ts';
import { mirexKeyScore, rankKeys } from '../helpers/analysis/key.ts';

const TONICS: PitchClass[] = ['C', 'F#', 'Bb'];

for (const { name } of listStyles()) {
  test(`style "${name}" composes scores that pass the symbolic gates in each of its modes`, (t) => {
    const preset = getPreset(name);
    preset.modes.forEach((mode, i) => {
      for (const [duration, seed] of [
        [30, 11],
        [180, 12],
      ] as const) {
        const spec = specFor(preset, { duration, seed: seed + i, key: { tonic: TONICS[i % TONICS.length]!, mode } });
        const score: Score = composeWith(spec, preset);
        const where = `${name} ${mode} ${duration}s`;
        t.is(score.duration, duration, where);
        t.true(m.latestNoteEnd(score) <= duration - 0.05 + 1e-9, where);
        t.true(m.inKeyOrChordRatio(score) >= 0.95, `${where}: in key ${m.inKeyOrChordRatio(score)}`);
        const strong = m.strongBeatChordToneRatio(score);
        if (!Number.isNaN(strong)) t.true(strong >= 0.7, `${where}: strong-beat chord tones ${strong}`);
        t.is(m.parallelPerfectCount(score), 0, where);
        const final = score.chords[score.chords.length - 1]!;
        t.is(final.root, score.scale[0]!, where);
        const last = m.lastLeadNote(score);
        if (last) t.true(final.pitchClasses.includes(last.midi % 12), where);
        const roles = [...new Set(spec.instruments.map((c) => c.role).filter((r) => r !== 'vocal'))].sort();
        t.deepEqual(score.parts.map((p) => p.role).sort(), roles, where);
        t.true(
          score.parts.every((p) => p.notes.length > 0),
          `${where}: a part is silent`,
        );
      }
    });
  });
}

test('the notes state the requested key: a Krumhansl–Kessler estimate scores >= 0.85 MIREX on average', (t) => {
  const tonics: PitchClass[] = ['C', 'Eb', 'F#', 'A'];
  const scores: number[] = [];
  for (const { name } of listStyles()) {
    const preset = getPreset(name);
    for (const mode of ['major', 'minor'] as const) {
      for (const [i, tonic] of tonics.entries()) {
        const score = composeWith(specFor(preset, { duration: 30, seed: 4242 + i, key: { tonic, mode } }), preset);
        const chroma = new Array<number>(12).fill(0);
        for (const p of m.pitchedParts(score)) for (const n of p.notes) chroma[n.midi % 12]! += n.duration * n.velocity;
        const best = rankKeys(chroma)[0]!;
        scores.push(mirexKeyScore(best, { tonic: score.scale[0]!, mode }));
      }
    }
  }
  const average = m.mean(scores);
  t.true(average >= 0.85, `average MIREX key score ${average} over ${scores.length} scores`);
});
