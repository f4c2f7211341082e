/**
 * Each meter's own grooves: a style played outside its preset's meter keeps its drums on that meter's grid,
 * its kick on the meter's pulses (3+2 in 5/4, 2+2+3 in 7/8, dotted quarters in 6/8 and 12/8), and its bass
 * on the strong beats, instead of a 4/4 grid stretched over the bar.
 */
import test from 'ava';
import { compose, interpret, type Score } from '../../engine/index.ts';

/** Quarter-note positions of the kick inside a bar, per meter (the grid the analysers hear as the pulse). */
// The grid is the sixteenth (build rolls reach it in every meter); a 4/4 grid stretched over 3/4 falls on 3/16 steps.
const PULSES: Record<string, { barQuarters: number; grid: number; kicks: number[] }> = {
  '3/4': { barQuarters: 3, grid: 0.25, kicks: [0, 2] },
  '5/4': { barQuarters: 5, grid: 0.25, kicks: [0, 3] },
  '6/8': { barQuarters: 3, grid: 0.25, kicks: [0, 1.5] },
  '12/8': { barQuarters: 6, grid: 0.25, kicks: [0, 1.5, 3, 4.5] },
  '7/8': { barQuarters: 3.5, grid: 0.25, kicks: [0, 1, 2] },
};

function score(style: string, meter: string): Score {
  return compose(
    interpret({
      prompt: `an instrumental ${style} track`,
      duration: 40,
      style,
      instrumental: true,
      seed: 11,
      music: { timeSignature: meter, energy: 0.8 },
    }),
  );
}

const near = (value: number, grid: number) => Math.abs(value / grid - Math.round(value / grid)) < 1e-6;
const inBar = (beat: number, bar: number) => ((beat % bar) + bar) % bar;

for (const style of ['folk', 'rock', 'house']) {
  for (const [meter, shape] of Object.entries(PULSES)) {
    test(`${style} in ${meter}: every drum hit is on the meter's grid and every kick on one of its pulses`, (t) => {
      const drums = score(style, meter).parts.find((p) => p.role === 'drums');
      t.truthy(drums);
      const off = drums!.notes.filter((n) => !near(n.beat, shape.grid));
      t.deepEqual(
        off.map((n) => n.beat),
        [],
      );
      const kicks = drums!.notes.filter((n) => n.midi === 36).map((n) => inBar(n.beat, shape.barQuarters));
      t.true(kicks.length > 0);
      t.deepEqual(
        kicks.filter((k) => !shape.kicks.some((p) => Math.abs(k - p) < 1e-6)),
        [],
      );
    });
  }
}

test('a 3/4 bass lands on the downbeat, not on "two-and" where half a bar would put it', (t) => {
  const bass = score('folk', '3/4').parts.find((p) => p.role === 'bass')!;
  t.deepEqual(
    bass.notes.filter((n) => !near(n.beat, 1)).map((n) => n.beat),
    [],
  );
});
