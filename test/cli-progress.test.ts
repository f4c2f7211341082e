/** `tunesmith render`'s progress line: on a terminal only, never with --json or into a pipe. */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgressBar, progressLine } from '../src/cli/progress.ts';
import { render } from '../src/cli/render.ts';
import type { Io } from '../src/cli/usage.ts';
import { runCli } from './helpers/process.ts';

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-progress-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function terminalIo() {
  const out: string[] = [];
  const terminal: string[] = [];
  const io: Io = {
    out: (text) => void out.push(text),
    err: () => undefined,
    env: {},
    terminal: (text) => void terminal.push(text),
  };
  return { io, out, terminal };
}

test('the progress line names the phase and the percentage', (t) => {
  t.is(progressLine(null), `Composing [${'-'.repeat(24)}]   0%`);
  t.is(progressLine(0.5), `Rendering [${'#'.repeat(12)}${'-'.repeat(12)}]  50%`);
  t.regex(progressLine(0.98), /^Encoding +\[#+-?\] {2}98%$/);
});

test('the bar redraws its line in place only when it changes, and clears it when done', (t) => {
  const written: string[] = [];
  const bar = new ProgressBar((text) => void written.push(text));
  bar.update(0.5);
  bar.update(0.501);
  bar.done();
  t.is(written.length, 2);
  t.true(written[0]!.startsWith('\rRendering'));
  t.regex(written[1]!, /^\r +\r$/);
});

test('on a terminal, render shows its progress up to 100 % and keeps it out of the output', async (t) => {
  const { io, out, terminal } = terminalIo();
  const code = await render.run(
    ['a calm lofi beat', '--duration', '5', '--seed', '1', '--instrumental', '--out', join(await tempDir(t), 'a.wav')],
    io,
  );
  t.is(code, 0);
  t.true(terminal.some((text) => text.includes('Composing')));
  t.true(terminal.some((text) => text.includes('Rendering')));
  t.true(terminal.some((text) => text.includes('100%')));
  t.false(out.some((text) => text.includes('\r')));
});

test('on a terminal, render --format opus shows the Encoding phase after Rendering', async (t) => {
  const { io, terminal } = terminalIo();
  const code = await render.run(
    [
      'a calm lofi beat',
      '--duration',
      '5',
      '--seed',
      '1',
      '--instrumental',
      '--format',
      'opus',
      '--out',
      join(await tempDir(t), 'a.opus'),
    ],
    io,
  );
  t.is(code, 0);
  const phases = terminal.map((text) => /(Rendering|Encoding)/.exec(text)?.[1]).filter(Boolean);
  t.true(phases.includes('Encoding'));
  t.is(phases.indexOf('Encoding'), phases.lastIndexOf('Rendering') + 1, 'encoding comes after the last rendering line');
});

test('with --json, render shows no progress even on a terminal', async (t) => {
  const { io, terminal } = terminalIo();
  await render.run(
    [
      'a calm lofi beat',
      '--duration',
      '5',
      '--seed',
      '1',
      '--instrumental',
      '--json',
      '--out',
      join(await tempDir(t), 'a.wav'),
    ],
    io,
  );
  t.deepEqual(terminal, []);
});

test('into a pipe, render writes nothing to stderr', async (t) => {
  const { code, stderr } = await runCli(
    [
      'render',
      'a calm lofi beat',
      '--duration',
      '5',
      '--seed',
      '1',
      '--instrumental',
      '--out',
      join(await tempDir(t), 'a.wav'),
    ],
    {},
  );
  t.is(code, 0);
  t.is(stderr, '');
});
