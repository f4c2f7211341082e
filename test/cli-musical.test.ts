/** `tunesmith render --bpm --key --time-signature`: the API's musical fields from a terminal. */
import test from 'ava';
import { join } from 'node:path';
import { runCli, tempDataDir } from './helpers/process.ts';

test('render --bpm --key --time-signature plays them over the prompt and says so in the metadata', async (t) => {
  const dir = await tempDataDir(t);
  const out = join(dir, 'waltz.wav');
  const run = await runCli(
    [
      'render',
      'a folk tune at 120 bpm',
      '--duration',
      '12',
      '--seed',
      '3',
      '--instrumental',
      '--bpm',
      '97',
      '--key',
      'F# minor',
      '--time-signature',
      '3/4',
      '--out',
      out,
      '--json',
    ],
    {},
  );
  t.is(run.code, 0, run.stderr);
  const { metadata } = JSON.parse(run.stdout) as {
    metadata: { bpm: number; key: string; meter: string; warnings: string[] };
  };
  t.like(metadata, { bpm: 97, key: 'F# minor', meter: '3/4' });
  t.true(metadata.warnings.includes('The prompt says "120 bpm" but the "bpm" field asks for 97: the field wins.'));
});

test('render --time-signature 9/8 exits 2 naming the meters it plays', async (t) => {
  const run = await runCli(['render', 'a folk tune', '--time-signature', '9/8'], {});
  t.is(run.code, 2);
  t.regex(run.stderr, /--time-signature expects one of 3\/4, 4\/4, 5\/4, 6\/8, 7\/8, 12\/8, got "9\/8"\./);
});
