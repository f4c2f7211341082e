/**
 * Finished stems wait on disk (issue 29: a render's memory): a spilled array comes back bit for bit, its memory is
 * freed when it is written, and nothing is left on disk after a render, finished or failed half-way.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
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
