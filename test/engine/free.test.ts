/**
 * Freeing render buffers as soon as they are done (issue 29: a 180 s render with stems grew by 1.8 GB, its dead
 * buffers waiting for a garbage collection that a long render rarely gives): free() detaches only what it owns,
 * and a render hands each stem over and empties it, keeping no stem after its turn, with the same samples.
 */
import test from 'ava';
import { compose, interpret, type GenerationRequest } from '../../engine/index.ts';
import { renderScore, type RenderedStem } from '../../engine/render/index.ts';
import { free } from '../../engine/render/free.ts';

test('free empties arrays that own their buffer and leaves shared memory alone', (t) => {
  const whole = new Float32Array(1024).fill(1);
  const parent = new Float32Array(1024).fill(1);
  const view = parent.subarray(0, 512);
  const shared = new Float32Array(new SharedArrayBuffer(4096)).fill(1);
  free(whole, view, shared, null, undefined);
  t.is(whole.length, 0);
  t.is(view.length, 512);
  t.is(parent.length, 1024);
  t.is(shared.length, 1024);
  free(whole); // twice is harmless
  t.is(whole.length, 0);
});

const sungLoop: GenerationRequest = {
  prompt: 'a happy folk song about summer with a female singer',
  duration: 12,
  style: 'folk',
  instrumental: false,
  seed: 9,
  stems: true,
  loop: true,
};

test('a render with onStem hands each stem over once, then empties it, with the samples of a render that keeps them', async (t) => {
  const score = compose(interpret(sungLoop));
  const kept = await renderScore(score, { stems: true });
  const handed: { stem: RenderedStem; copy: RenderedStem }[] = [];
  const streamed = await renderScore(compose(interpret(sungLoop)), {
    stems: true,
    onStem: (stem) => {
      // Only the stem in hand is alive: every earlier one was emptied when its turn ended.
      t.true(handed.every(({ stem: earlier }) => earlier.left.length === 0 && earlier.right.length === 0));
      handed.push({ stem, copy: { role: stem.role, left: stem.left.slice(), right: stem.right.slice() } });
    },
  });
  t.is(streamed.stems, undefined);
  t.deepEqual(
    handed.map(({ copy }) => copy.role),
    kept.stems!.map((stem) => stem.role),
  );
  t.true(handed.some(({ copy }) => copy.role === 'vocal'));
  for (const [index, { stem, copy }] of handed.entries()) {
    t.is(stem.left.length, 0, stem.role);
    t.deepEqual(copy.left, kept.stems![index]!.left, copy.role);
    t.deepEqual(copy.right, kept.stems![index]!.right, copy.role);
  }
  t.deepEqual(streamed.left, kept.left);
});
