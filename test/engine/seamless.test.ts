/** The loop's tail and wrap (engine/render/seamless.ts) on small hand-made signals. */
import test from 'ava';
import { foldTail, withWrap, withoutWrap } from '../../engine/render/seamless.ts';

test('what rings past the end is added onto the start', (t) => {
  t.deepEqual([...foldTail(Float32Array.from([1, 2, 3, 4, 10, 20]), 4)], [11, 22, 3, 4]);
});

test('a tail longer than the loop goes round as often as it takes', (t) => {
  t.deepEqual([...foldTail(Float32Array.from([1, 1, 1, 1, 1, 1, 1]), 2)], [4, 3]);
});

test("the wrap puts the loop's end before it and its start after it, and comes off again", (t) => {
  const loop = Float32Array.from([1, 2, 3]);
  const wrapped = withWrap(loop, 2);
  t.deepEqual([...wrapped], [2, 3, 1, 2, 3, 1, 2]);
  t.deepEqual([...withoutWrap(wrapped, 2)], [1, 2, 3]);
});

test('a wrap longer than the loop repeats it', (t) => {
  t.deepEqual([...withWrap(Float32Array.from([5, 6]), 3)], [6, 5, 6, 5, 6, 5, 6, 5]);
});
