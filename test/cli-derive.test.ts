/**
 * `tunesmith extend` and `tunesmith remix` on files: a track rendered with `render --json`, extended and redone
 * from that line, keeps its PCM byte for byte outside the changed region; the API's refusals are usage errors.
 */
import test, { type ExecutionContext } from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import wavefile from 'wavefile';
import { runCli, tempDataDir } from './helpers/process.ts';

const pcm = async (path: string): Promise<Buffer> =>
  Buffer.from(
    (new wavefile.WaveFile(await readFile(path)) as unknown as { data: { samples: Uint8Array } }).data.samples,
  );

/** A 30 s lofi track rendered by the CLI into a temp dir, with its render --json line saved beside it. */
async function renderedSource(t: ExecutionContext, flags: string[]) {
  const dir = await tempDataDir(t);
  const source = join(dir, 'source.wav');
  const rendered = await runCli(
    [
      'render',
      'a chill lofi beat with piano',
      '--seed',
      '4242',
      '--instrumental',
      '--duration',
      '30',
      ...flags,
      '--out',
      source,
      '--json',
    ],
    {},
  );
  t.is(rendered.code, 0, rendered.stderr);
  const line = join(dir, 'source.json');
  await writeFile(line, rendered.stdout);
  const plan = (JSON.parse(rendered.stdout) as { metadata: { plan: { start: number; end: number }[] } }).metadata.plan;
  return { dir, source, line, plan };
}

test('extend and remix continue and redo a track rendered by the CLI, from its render --json line, keeping its bytes outside the change', async (t) => {
  const { dir, source, line, plan } = await renderedSource(t, ['--bpm', '90']);

  const extended = join(dir, 'extended.wav');
  const extend = await runCli(['extend', source, '--from', line, '--seconds', '8', '--out', extended, '--json'], {});
  t.is(extend.code, 0, extend.stderr);
  t.like(JSON.parse(extend.stdout), { wav: extended, source: { id: 'source', operation: 'extend' } });
  const [before, longer] = await Promise.all([pcm(source), pcm(extended)]);
  const cut = Math.round(plan.at(-1)!.start * 44100) * 4;
  t.true(longer.length > before.length);
  t.true(longer.subarray(0, cut).equals(before.subarray(0, cut)), "the source's bytes up to its ending's bar line");

  const remixed = join(dir, 'remixed.wav');
  const remix = await runCli(
    ['remix', source, '--from', line, '--section', '1', '--energy', '1', '--out', remixed],
    {},
  );
  t.is(remix.code, 0, remix.stderr);
  t.regex(remix.stdout, /Redid section 1/);
  const redone = await pcm(remixed);
  const [start, end] = [plan[1]!.start, plan[1]!.end].map((s) => Math.round(s * 44100) * 4);
  t.is(redone.length, before.length);
  t.true(
    redone.subarray(0, start).equals(before.subarray(0, start)) && redone.subarray(end!).equals(before.subarray(end!)),
  );
  t.false(redone.subarray(start, end).equals(before.subarray(start, end)));
});

test('extend continues a 48 kHz track rendered by the CLI at 48 kHz, keeping its bytes up to the ending', async (t) => {
  const { dir, source, line, plan } = await renderedSource(t, ['--sample-rate', '48000']);
  const extended = join(dir, 'extended.wav');
  const extend = await runCli(['extend', source, '--from', line, '--seconds', '8', '--out', extended], {});
  t.is(extend.code, 0, extend.stderr);
  t.is(Number((new wavefile.WaveFile(await readFile(extended)).fmt as { sampleRate: number }).sampleRate), 48000);
  const [before, longer] = await Promise.all([pcm(source), pcm(extended)]);
  const cut = Math.round(plan.at(-1)!.start * 48000) * 4;
  t.true(longer.length > before.length);
  t.true(longer.subarray(0, cut).equals(before.subarray(0, cut)), "the source's bytes up to its ending's bar line");
});

test("extend and remix refuse with the API's sentences, naming the flags", async (t) => {
  const dir = await tempDataDir(t);
  const line = join(dir, 'source.json');
  const wav = join(dir, 'source.wav');
  await writeFile(wav, 'not a wav');
  await writeFile(
    line,
    JSON.stringify({
      request: { prompt: 'x', duration: 30, seed: 1 },
      metadata: {
        bpm: 120,
        key: 'C major',
        meter: '4/4',
        plan: [{ kind: 'verse', bars: 15, energy: 0.5, instruments: ['drums'], start: 0, end: 30 }],
      },
    }),
  );
  const noFrom = await runCli(['extend', wav, '--seconds', '8'], {});
  t.is(noFrom.code, 2);
  t.regex(noFrom.stderr, /--from is required/);
  const past = await runCli(['remix', wav, '--from', line, '--section', '1'], {});
  t.is(past.code, 2);
  t.regex(past.stderr, /--section must be the index of one of this generation's 1 sections/);
  const notWav = await runCli(['extend', wav, '--from', line, '--seconds', '8'], {});
  t.is(notWav.code, 2);
  t.regex(notWav.stderr, /is not a 16- or 24-bit stereo WAV/);
});
