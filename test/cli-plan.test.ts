/** `tunesmith render --plan plan.json`: a composition plan from a file, checked with the API's rules. */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDataDir } from './helpers/process.ts';
import { readWav } from './helpers/analysis/wav.ts';

test('render --plan plays the sections from the file, in order, on bar lines, and the track lasts the plan', async (t) => {
  const dir = await tempDataDir(t);
  const planFile = join(dir, 'plan.json');
  // 120 bpm in 4/4: 2 s a bar, so 2 + 3 + 1 bars = 12 s; the starts are 0, 4 and 10 s.
  await writeFile(
    planFile,
    JSON.stringify([
      { kind: 'intro', bars: 2 },
      { kind: 'chorus', bars: 3, energy: 1 },
      { kind: 'outro', seconds: 2 },
    ]),
  );
  const out = join(dir, 'planned.wav');
  const run = await runCli(
    [
      'render',
      'an upbeat pop song',
      '--seed',
      '3',
      '--instrumental',
      '--bpm',
      '120',
      '--time-signature',
      '4/4',
      '--plan',
      planFile,
      '--out',
      out,
      '--json',
    ],
    {},
  );
  t.is(run.code, 0, run.stderr);
  const { metadata } = JSON.parse(run.stdout) as {
    metadata: { plan: { kind: string; bars: number; start: number; energy: number }[] };
  };
  t.deepEqual(
    metadata.plan.map((s) => [s.kind, s.bars, s.start]),
    [
      ['intro', 2, 0],
      ['chorus', 3, 4],
      ['outro', 1, 10],
    ],
  );
  t.is(metadata.plan[1]!.energy, 1);
  t.is((await readWav(out)).frames, 12 * 44100);
});

test('render --plan accepts a generation as GET returns it (its plan) and refuses a bad section naming it', async (t) => {
  const dir = await tempDataDir(t);
  const bad = join(dir, 'bad.json');
  await writeFile(
    bad,
    JSON.stringify({
      id: 'gen_x',
      plan: [
        { kind: 'intro', bars: 2 },
        { kind: 'hook', bars: 4 },
      ],
    }),
  );
  const run = await runCli(['render', 'a song', '--plan', bad], {});
  t.is(run.code, 2);
  t.regex(run.stderr, /--plan: sections\[1\]\.kind is "hook"; use one of: intro, verse/);
});

test('render --plan with --duration and a fully sized plan exits 2: the plan sets the length', async (t) => {
  const dir = await tempDataDir(t);
  const planFile = join(dir, 'plan.json');
  await writeFile(planFile, JSON.stringify({ sections: [{ kind: 'verse', bars: 8 }] }));
  const run = await runCli(['render', 'a song', '--plan', planFile, '--duration', '30'], {});
  t.is(run.code, 2);
  t.regex(run.stderr, /--duration cannot be given with a plan/);
});
