/**
 * The composition plan in the engine (issue 16, item 2): the plan is the form the composer plays, section by
 * section, on bar lines; per-section energy, roles and lyrics reach the score.
 */
import test from 'ava';
import { compose, interpret, LyricsTooLongError, type GenerationRequest } from '../../engine/index.ts';
import { sectionActivity } from '../helpers/score-metrics.ts';

const base: GenerationRequest = {
  prompt: 'an upbeat pop song',
  duration: 60,
  style: 'pop',
  instrumental: true,
  seed: 9,
  music: { bpm: 120, timeSignature: '4/4' },
};

test("the score's sections are the plan's, in order, each its bars, starting on bar lines at whole samples", (t) => {
  const plan = [
    { kind: 'intro', bars: 4 },
    { kind: 'verse', bars: 8 },
    { kind: 'prechorus', bars: 2 },
    { kind: 'chorus', bars: 8 },
    { kind: 'solo', bars: 4 },
    { kind: 'outro', bars: 3 },
  ] as const;
  const spec = interpret({ ...base, plan: [...plan] });
  t.is(spec.duration, 29 * 2);
  const score = compose(spec);
  t.deepEqual(
    score.sections.map((s) => [s.planKind, s.bars]),
    plan.map((s) => [s.kind, s.bars]),
  );
  let bar = 0;
  for (const section of score.sections) {
    t.is(section.startBar, bar);
    t.is(section.time, bar * 2);
    t.true(Number.isInteger(section.time * 44100));
    bar += section.bars;
  }
});

test('a plan stored with the old "pre_chorus" spelling plays, and is reported, as "prechorus" (issue 26)', (t) => {
  const spec = interpret({
    ...base,
    plan: [
      { kind: 'pre_chorus', bars: 16 },
      { kind: 'chorus', bars: 16 },
    ],
  });
  t.deepEqual(
    compose(spec).sections.map((s) => [s.kind, s.planKind]),
    [
      ['prechorus', 'prechorus'],
      ['chorus', 'chorus'],
    ],
  );
});

test('seconds become the nearest whole bars at the tempo, with a warning saying so', (t) => {
  const spec = interpret({
    ...base,
    plan: [
      { kind: 'verse', seconds: 31 },
      { kind: 'outro', bars: 2 },
    ],
  });
  t.deepEqual(
    spec.plan?.map((s) => s.bars),
    [16, 2],
  );
  t.true(spec.warnings.some((w) => w.startsWith('Section 1 (verse): 31 s is played as 16 bars, 32 s')));
});

test("a section's energy drives its loudness and density, and its instruments are the only roles that play", (t) => {
  const score = compose(
    interpret({
      ...base,
      plan: [
        { kind: 'verse', bars: 8, energy: 0.1 },
        { kind: 'verse', bars: 8, energy: 1 },
        { kind: 'verse', bars: 8, instruments: ['pad'] },
      ],
    }),
  );
  const [calm, loud, padOnly] = score.sections;
  t.true(sectionActivity(score, loud!).meanVelocity > sectionActivity(score, calm!).meanVelocity);
  const playing = score.parts
    .filter((p) => p.notes.some((n) => n.time >= padOnly!.time + 0.1 && n.time < padOnly!.time + 16 - 0.1))
    .map((p) => p.role);
  t.deepEqual(playing, ['pad']);
});

test('per-section lyrics are sung in their own sections and nowhere else', (t) => {
  const spec = interpret({
    ...base,
    instrumental: false,
    plan: [
      { kind: 'intro', bars: 4 },
      { kind: 'verse', bars: 8, lyrics: 'City lights are fading slow\nI walk the empty road alone' },
      { kind: 'bridge', bars: 4 },
      { kind: 'breakdown', bars: 8, lyrics: 'Stay with me tonight' },
      { kind: 'outro', bars: 4 },
    ],
  });
  const score = compose(spec);
  const verse = score.sections[1]!;
  const breakdown = score.sections[3]!;
  const lines = score.vocal!.lines;
  t.deepEqual(
    lines.map((l) => l.text),
    ['City lights are fading slow', 'I walk the empty road alone', 'Stay with me tonight'],
  );
  for (const line of lines.slice(0, 2)) t.true(line.start >= verse.time && line.end <= verse.time + 16);
  t.true(lines[2]!.start >= breakdown.time && lines[2]!.end <= breakdown.time + 16);
});

test('more lines than a section holds is LyricsTooLongError, not a spill into the next section', (t) => {
  const lyrics = Array.from({ length: 12 }, (_, i) => `this is the line number ${i + 1}`).join('\n');
  const spec = interpret({
    ...base,
    instrumental: false,
    plan: [
      { kind: 'verse', bars: 4, lyrics },
      { kind: 'chorus', bars: 24 },
    ],
  });
  t.throws(() => compose(spec), { instanceOf: LyricsTooLongError });
});

test('unsized sections keep a 30 s or 180 s track inside 30–180 s whatever tempo the seed picks, and the trace says how', (t) => {
  for (const duration of [30, 180])
    for (let seed = 0; seed < 24; seed++) {
      const spec = interpret({ ...base, duration, seed, music: {}, plan: [{ kind: 'verse' }] });
      t.true(
        spec.duration >= 30 - 1e-6 && spec.duration <= 180 + 1e-6,
        `${duration} s, seed ${seed}: ${spec.duration}`,
      );
      t.true(
        spec.trace.some((line) => line.source === 'sections' && /without a length takes \d+ bars/.test(line.effect)),
      );
    }
  // 30 s is 29.4 s of whole bars at 98 bpm: one bar more, and the trace says why.
  const spec = interpret({ ...base, duration: 30, music: { bpm: 98 }, plan: [{ kind: 'verse' }] });
  t.is(spec.plan?.[0]?.bars, 13);
  t.true(
    spec.trace.some((line) =>
      /fewest whole bars that last 30 s \(12 bars, nearest the 30 s asked, would be 29\.4 s\)/.test(line.effect),
    ),
  );
});

test('unsized sections with no room in the duration are refused, not played longer than asked', (t) => {
  const plan = Array.from({ length: 30 }, () => ({ kind: 'verse' as const }));
  const error = t.throws(() => interpret({ ...base, duration: 60, music: { bpm: 40 }, plan }));
  t.is(error?.name, 'RequestError');
  t.regex(
    error!.message,
    /30 sections without a length have no room in the track's 60 s \("duration"\): with at least one bar each, the plan lasts 180 s at 40 bpm/,
  );
  const sized = interpret({
    ...base,
    duration: 60,
    plan: [{ kind: 'intro', bars: 28 }, { kind: 'verse' }, { kind: 'outro', bars: 1 }],
  });
  t.deepEqual(
    sized.plan?.map((s) => s.bars),
    [28, 1, 1],
  );
  t.throws(() => interpret({ ...base, duration: 60, plan: [{ kind: 'intro', bars: 30 }, { kind: 'verse' }] }), {
    message: /section without a length has no room/,
  });
});
