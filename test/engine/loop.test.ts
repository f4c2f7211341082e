/**
 * Seamless loops (GenerationRequest.loop), judged on the decoded WAV played twice end to end: the seam must be
 * no rougher than the loop's own bar lines, in level and in spectral flux (test/helpers/analysis/seam.ts). An
 * ordinary track played the same way fails, so the measure can see a seam.
 */
import test from 'ava';
import type { GenerationRequest } from '../../engine/index.ts';
import { decodeWav, monoMix } from '../helpers/analysis.ts';
import { createTrackRenderer, type RenderedFile, type TrackRenderer } from '../helpers/analysis/renders.ts';
import { seamFigures, type SeamFigures } from '../helpers/analysis/seam.ts';

const loopOf = (style: string, prompt: string): GenerationRequest => ({
  prompt,
  duration: 30,
  style,
  instrumental: true,
  seed: 7,
  loop: true,
});

/** Drums on the downbeat (lofi, house, rock, jazz), a room's tail (orchestral), a long pad wash (ambient). */
const LOOPS: Record<string, GenerationRequest> = {
  lofi: loopOf('lofi', 'rainy night study beats'),
  house: loopOf('house', 'deep house groove'),
  rock: loopOf('rock', 'driving rock with guitars'),
  jazz: loopOf('jazz', 'late night jazz trio'),
  orchestral: loopOf('orchestral', 'heroic orchestral theme'),
  ambient: loopOf('ambient', 'floating ambient pads'),
};

let renderer: TrackRenderer;
test.before(async () => {
  renderer = await createTrackRenderer({ prefix: 'tunesmith-loops-' });
});
test.after.always(async () => {
  await renderer?.close();
});

async function figuresOf(file: RenderedFile, bars: number): Promise<SeamFigures> {
  const audio = decodeWav(file.track.wav);
  return seamFigures(monoMix(audio), audio.sampleRate, bars);
}

const fmt = (values: number[]) => values.map((v) => v.toFixed(1)).join(' ');

test('a loop is the whole number of bars nearest the duration asked, and says so', async (t) => {
  const file = await renderer.render('lofi', LOOPS.lofi!);
  const { metadata } = file.track;
  const [beatsPerBar] = metadata.meter.split('/').map(Number);
  const barSeconds = (beatsPerBar! * 60) / metadata.bpm;
  const bars = Math.round(30 / barSeconds);
  t.deepEqual(metadata.loop, { bars, seconds: Math.round(bars * barSeconds * 1000) / 1000, requested_seconds: 30 });
  t.is(decodeWav(file.track.wav).frames, Math.round(bars * barSeconds * 44100));
});

test('a loop has no intro and no outro', async (t) => {
  for (const name of ['lofi', 'house']) {
    const { metadata } = (await renderer.render(name, LOOPS[name]!)).track;
    t.false(
      metadata.sections.some((section) => section.kind === 'intro' || section.kind === 'outro'),
      `${name}: ${metadata.sections.map((s) => s.kind).join(' ')}`,
    );
  }
});

for (const name of Object.keys(LOOPS)) {
  test(`${name}: the level step at the seam is no larger than at the loop's own bar lines`, async (t) => {
    const file = await renderer.render(name, LOOPS[name]!);
    const figures = await figuresOf(file, file.track.metadata.loop!.bars);
    t.log(
      `${name}: seam ${figures.seamStep.toFixed(2)} dB; bar lines ${fmt(figures.barSteps)}; median frame step ${figures.medianStep.toFixed(2)} dB`,
    );
    t.true(figures.seamStep <= Math.max(...figures.barSteps));
  });

  test(`${name}: the spectral flux at the seam peaks no higher than at the loop's own bar lines`, async (t) => {
    const file = await renderer.render(name, LOOPS[name]!);
    const figures = await figuresOf(file, file.track.metadata.loop!.bars);
    t.log(
      `${name}: seam ${figures.seamFlux.toFixed(0)}; bar lines ${figures.barFlux.map((v) => v.toFixed(0)).join(' ')}`,
    );
    t.true(figures.seamFlux <= Math.max(...figures.barFlux));
  });
}

test('an ordinary track of the same length, played as a loop, fails the level test', async (t) => {
  const loop = await renderer.render('rock', LOOPS.rock!);
  const { bars, seconds } = loop.track.metadata.loop!;
  const plain = await renderer.render('rock-plain', { ...LOOPS.rock!, loop: false, duration: seconds });
  const figures = await figuresOf(plain, bars);
  t.log(
    `ordinary track: seam ${figures.seamStep.toFixed(1)} dB; bar lines at most ${Math.max(...figures.barSteps).toFixed(1)} dB`,
  );
  t.true(figures.seamStep > Math.max(...figures.barSteps));
});
