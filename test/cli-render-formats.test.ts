/** `tunesmith render --format/--sample-rate/--bit-depth/--bitrate`: the file is written in that format, read back by ffprobe. */
import test from 'ava';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { decode, probe } from './helpers/analysis/decode.ts';
import { runCli, tempDataDir } from './helpers/process.ts';

const base = ['render', 'a calm lofi beat', '--duration', '5', '--seed', '1', '--instrumental'];

test("--format mp3 writes an MP3 of the track's length and the MIDI beside it", async (t) => {
  const dir = await tempDataDir(t);
  const out = join(dir, 'beat.mp3');
  const result = await runCli([...base, '--format', 'mp3', '--out', out, '--json'], {});
  t.is(result.code, 0, result.stderr);
  t.is(JSON.parse(result.stdout).mp3, out);
  t.like(await probe(out), { codec: 'mp3', sampleRate: 44100, channels: 2 });
  t.is((await decode(out)).frames, 5 * 44100);
  await t.notThrowsAsync(access(join(dir, 'beat.mid')));
});

test('--format flac --sample-rate 48000 --bit-depth 24 writes a 24-bit 48 kHz FLAC', async (t) => {
  const dir = await tempDataDir(t);
  const out = join(dir, 'beat.flac');
  const result = await runCli(
    [...base, '--format', 'flac', '--sample-rate', '48000', '--bit-depth', '24', '--out', out],
    {},
  );
  t.is(result.code, 0, result.stderr);
  t.like(await probe(out), { codec: 'flac', sampleRate: 48000, channels: 2, bits: 24 });
  t.is((await decode(out)).frames, 5 * 48000);
});

test('--format opus writes Ogg Opus at 48 kHz', async (t) => {
  const out = join(await tempDataDir(t), 'beat.opus');
  const result = await runCli([...base, '--format', 'opus', '--out', out], {});
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /Wrote .*beat\.opus\n {6}.*beat\.mid/);
  t.like(await probe(out), { codec: 'opus', sampleRate: 48000, channels: 2 });
});

test('an unknown --format, a --bit-depth for Opus and a --bitrate for FLAC exit 2 saying why', async (t) => {
  const cases: [string[], RegExp][] = [
    [['--format', 'ogg'], /--format expects one of wav, mp3, opus, flac, got "ogg"/],
    [
      ['--format', 'opus', '--bit-depth', '24'],
      /--sample-rate and --bit-depth apply to wav and flac; opus is always 48 kHz/,
    ],
    [['--format', 'flac', '--bitrate', '192'], /--bitrate applies to --format mp3 only/],
    [['--sample-rate', '96000'], /--sample-rate expects one of 44100, 48000, got "96000"/],
  ];
  for (const [args, message] of cases) {
    const result = await runCli([...base, ...args], {});
    t.is(result.code, 2, args.join(' '));
    t.regex(result.stderr, message);
  }
});
