import test from 'ava';
import { DEFAULT_SPEED, loadedSpeed, RenderSpeed, UNLOADED_PER_AUDIO_SECOND } from '../src/jobs/render-speed.ts';

test('before any render, a track is estimated at a fixed cost plus a cost per second of audio', (t) => {
  const speed = new RenderSpeed();
  t.is(speed.estimate(60), DEFAULT_SPEED.overheadSeconds + 60 * DEFAULT_SPEED.perAudioSecond);
  t.true(speed.estimate(30) < speed.estimate(180));
});

test('the first measured render replaces the default per-second cost', (t) => {
  const speed = new RenderSpeed({ overheadSeconds: 2, perAudioSecond: 0.05 });
  speed.record(32, 60);
  t.is(speed.perAudioSecond, 0.5);
});

test('after the first, renders move the per-second cost by a moving average', (t) => {
  const speed = new RenderSpeed({ overheadSeconds: 2, perAudioSecond: 0.1 }, true);
  speed.record(32, 60);
  t.is(Math.round(speed.perAudioSecond * 1000) / 1000, 0.22);
});

test('a render faster than the fixed cost leaves a small positive per-second cost', (t) => {
  const speed = new RenderSpeed();
  speed.record(1, 60);
  t.true(speed.perAudioSecond > 0);
});

/**
 * Render times measured on one thread of a busy 2-core machine (load average 7) with this engine, the basis of
 * DEFAULT_SPEED. A real render is not timed here: under a full test run's load it takes 2–3 times longer.
 */
const MEASURED = [
  { audio: 30, wall: 3.9 },
  { audio: 60, wall: 2.4 },
  { audio: 60, wall: 4.3 },
  { audio: 180, wall: 5.9 },
  { audio: 180, wall: 13.9 },
];

test('before any render, every estimate is within 2× of the measured render times', (t) => {
  const speed = new RenderSpeed();
  for (const { audio, wall } of MEASURED) {
    const estimate = speed.estimate(audio);
    t.true(estimate <= 2 * wall && wall <= 2 * estimate, `${audio} s: estimated ${estimate} s, measured ${wall} s`);
  }
});

test('the cold speed scales the unloaded cost by the threads that want each core once the render threads run', (t) => {
  const idle = loadedSpeed({ load: 0, cores: 2, workers: 1, rendering: 0 });
  t.is(idle.perAudioSecond, UNLOADED_PER_AUDIO_SECOND);
  t.is(idle.overheadSeconds, DEFAULT_SPEED.overheadSeconds);
  // The loaded machine of bench:estimates: 24 runnable threads on 2 cores, one render thread.
  t.is(loadedSpeed({ load: 24, cores: 2, workers: 1, rendering: 0 }).perAudioSecond, UNLOADED_PER_AUDIO_SECOND * 12.5);
  // More render threads than cores slow each other even on an idle machine.
  t.is(loadedSpeed({ load: 0, cores: 2, workers: 4, rendering: 0 }).perAudioSecond, UNLOADED_PER_AUDIO_SECOND * 2);
  // The server's own renders are in the load already: not counted twice.
  t.is(loadedSpeed({ load: 4, cores: 2, workers: 4, rendering: 4 }).perAudioSecond, UNLOADED_PER_AUDIO_SECOND * 2);
});
