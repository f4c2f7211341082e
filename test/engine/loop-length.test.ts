/** A loop's length (engine/interpret/loop.ts): the nearest whole number of bars, never none. */
import test from 'ava';
import { loopLength } from '../../engine/interpret/loop.ts';

test('the duration moves to the nearest whole bar', (t) => {
  // 120 bpm in 4/4: 2 s a bar. 31 s is 15.5 bars: rounds up; 30.9 s is 15.45: down.
  t.deepEqual(loopLength(31, 120, 4), { bars: 16, seconds: 32 });
  t.deepEqual(loopLength(30.9, 120, 4), { bars: 15, seconds: 30 });
});

test('the meter sets the bar: 3/4 at 90 bpm is 2 s a bar', (t) => {
  t.deepEqual(loopLength(9, 90, 3), { bars: 5, seconds: 10 });
});

test('a loop shorter than half a bar is one bar', (t) => {
  t.deepEqual(loopLength(0.5, 60, 4), { bars: 1, seconds: 4 });
});
