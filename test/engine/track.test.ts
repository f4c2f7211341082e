import test from 'ava';
import { compose, interpret } from '../../engine/index.ts';
import { trackMetadata } from '../../engine/track.ts';

test('a song prompt is reported as sung, and the trace says who sings which lyrics', (t) => {
  const spec = interpret({
    prompt: 'a happy pop song about summer',
    duration: 30,
    style: null,
    instrumental: false,
    seed: 5,
  });
  t.true(spec.vocals.enabled, 'the prompt asks for a song');
  const metadata = trackMetadata(spec, compose(spec));
  t.true(metadata.vocals);
  t.true(
    metadata.trace.some(
      (entry) =>
        entry.source === 'prompt' &&
        /lyrics written from the prompt are sung in \d+ lines by a (fe)?male voice/.test(entry.effect),
    ),
  );
});

test('a song too short to hold a sung line stays instrumental, and the trace says why', (t) => {
  const spec = interpret({
    prompt: 'a happy pop song about summer',
    duration: 4,
    style: null,
    instrumental: false,
    seed: 5,
  });
  const metadata = trackMetadata(spec, compose(spec));
  t.false(metadata.vocals);
  t.is(metadata.lyrics_timing, null);
  t.true(metadata.trace.some((entry) => /long enough to sing/.test(entry.effect)));
});

test('metadata sections tile the track from 0 to its duration', (t) => {
  const spec = interpret({ prompt: 'chill house', duration: 47, style: null, instrumental: true, seed: 9 });
  const { sections } = trackMetadata(spec, compose(spec));
  t.is(sections[0]!.start, 0);
  t.is(sections.at(-1)!.end, 47);
  for (let i = 1; i < sections.length; i++) t.is(sections[i]!.start, sections[i - 1]!.end);
});
