/**
 * Finished stems wait on disk (issue 29: a render's memory): a spilled array comes back bit for bit, its memory is
 * freed when it is written, and nothing is left on disk after a render, finished or failed half-way.
 */
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compose, interpret } from '../../engine/index.ts';
import { renderScore } from '../../engine/render/index.ts';
import { Spill } from '../../engine/render/spill.ts';
import { StemSet } from '../../engine/render/stems.ts';

test('a spilled array comes back bit for bit, and its memory goes when it is written', (t) => {
  const spill = new Spill();
  t.teardown(() => spill.close());
  const array = Float32Array.from([0, -0, 1.5, -3.25e-38, Number.NaN, Number.POSITIVE_INFINITY, 1e-45]);
  const bits = [...new Uint32Array(array.slice().buffer)];
  const spilled = spill.put(array);
  t.is(array.length, 0);
  const back = spill.take(spilled);
  t.deepEqual([...new Uint32Array(back.buffer)], bits);
  t.false(existsSync(spilled.path));
});

test('close removes what was not taken back', (t) => {
  const spill = new Spill();
  const spilled = spill.put(new Float32Array(1000).fill(0.5));
  t.true(existsSync(spilled.path));
  spill.close();
  t.false(existsSync(dirname(spilled.path)));
});

test('a finished stem waits on disk and comes back with the steps asked meanwhile (the ducking)', (t) => {
  const stems = new StemSet(4);
  t.teardown(() => stems.close());
  const drums = stems.of('drums');
  drums.left.set([1, 2, 3, 4]);
  drums.right.set([4, 3, 2, 1]);
  drums.reverb[0] = 0.5;
  stems.finish([drums]);
  t.is(drums.left.length, 0, 'its memory is freed');
  t.throws(() => stems.of('drums'), { message: /finished/ });
  stems.eachChannel((channel) => {
    for (let i = 0; i < channel.length; i++) channel[i] = (channel[i] ?? 0) * 0.5;
  });
  stems.of('vocal').left.set([8, 8, 8, 8]);
  t.is(stems.size, 2);
  const drained = [...stems.drain()];
  t.deepEqual(
    drained.map(([role]) => role),
    ['drums', 'vocal'],
  );
  const [, back] = drained[0]!;
  t.deepEqual([...back.left], [0.5, 1, 1.5, 2]);
  t.deepEqual([...back.right], [2, 1.5, 1, 0.5]);
  // The vocal was made after the step: it has its own samples, not halved.
  t.deepEqual([...drained[1]![1].left], [8, 8, 8, 8]);
});

/** Files under `dir`'s spill directories. */
function spilledFiles(dir: string): number {
  return readdirSync(dir).reduce((sum, sub) => sum + readdirSync(join(dir, sub)).length, 0);
}

test.serial(
  'a render with stems keeps its finished stems on disk through the voice, reverb and master, and leaves nothing',
  async (t) => {
    // Serial: TMPDIR is the process's, and os.tmpdir() reads it at each call.
    const dir = await mkdtemp(join(tmpdir(), 'tunesmith-spill-test-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    t.teardown(async () => {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(dir, { recursive: true, force: true });
    });
    const score = compose(
      interpret({ prompt: 'a folk song about summer', duration: 10, style: 'folk', instrumental: false, seed: 9 }),
    );
    const waiting: number[] = [];
    let stems = 0;
    await renderScore(score, {
      stems: true,
      onStem: () => void stems++,
      // With stems the mix reports 0-0.5 of the progress: past the voice (0.31) and before the stems' turn (0.5).
      onProgress: (fraction) => {
        if (fraction > 0.3 && fraction < 0.5) waiting.push(spilledFiles(dir));
      },
    });
    t.true(stems >= 4);
    // Each finished stem's two channels (and a delay send for some) were on disk, not in memory.
    t.true(Math.min(...waiting) >= 2 * stems, `${waiting.join(' ')} files for ${stems} stems`);
    t.deepEqual(readdirSync(dir), []);
  },
);
