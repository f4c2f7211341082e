/** `tunesmith render --loop --stems DIR`, run as a process: a loop of whole bars and its stems, on disk. */
import test from 'ava';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWavHeader } from './helpers/analysis.ts';
import { runCli } from './helpers/process.ts';

test('render --loop --stems writes a whole-bar loop and one WAV per part beside it, as long as the mix', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-cli-stems-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const stemsDir = join(dir, 'parts');
  const { code, stdout, stderr } = await runCli(
    [
      'render',
      'a calm lofi beat',
      '--duration',
      '6',
      '--seed',
      '1',
      '--instrumental',
      '--loop',
      '--stems',
      stemsDir,
      '--out',
      join(dir, 'loop.wav'),
      '--json',
    ],
    {},
  );
  t.is(code, 0, stderr);
  const result = JSON.parse(stdout) as {
    wav: string;
    stems: { role: string; path: string }[];
    metadata: { bpm: number; meter: string; loop: { bars: number; seconds: number } };
  };
  const { bpm, meter, loop } = result.metadata;
  const barSeconds = (Number(meter.split('/')[0]) * 60) / bpm;
  t.true(Number.isInteger(loop.bars) && loop.bars >= 1);
  const mix = await readWavHeader(result.wav);
  t.is(mix.frames, Math.round(loop.bars * barSeconds * mix.sampleRate));
  t.deepEqual((await readdir(stemsDir)).sort(), result.stems.map((stem) => `${stem.role}.wav`).sort());
  t.true(result.stems.length >= 2);
  for (const stem of result.stems) t.is((await readWavHeader(stem.path)).frames, mix.frames, stem.role);
});

test('render --stems without a directory is a usage error', async (t) => {
  const { code, stderr } = await runCli(['render', 'a calm lofi beat', '--stems'], {});
  t.is(code, 2);
  t.regex(stderr, /--stems/);
});
