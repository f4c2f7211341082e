/**
 * A derived track reports what is sung in it (issue 29, point 4): outside the changed region the source's lines, at
 * the source's times, inside it the new render's; in `lyrics`, `lyrics_timing`, the LRC and the WebVTT alike.
 */
import test from 'ava';
import { renderTrack, type GenerationRequest, type RenderedTrack } from '../engine/index.ts';
import { spliceLyrics } from '../engine/render/spliced-lyrics.ts';
import type { LyricTiming, TrackMetadata } from '../engine/types.ts';
import { sungOf } from '../src/jobs/splice-source.ts';

const line = (section: LyricTiming['section'], text: string, start: number): LyricTiming => ({
  section,
  text,
  start,
  end: start + 1.5,
  words: [{ text, start, end: start + 1.5 }],
});

test('lines starting in the changed region are the new ones, every other line the source’s, in time order', (t) => {
  const source = [line('verse', 'old one', 2), line('chorus', 'old two', 8.0004), line('verse', 'old three', 17)];
  const metadata = {
    vocals: true,
    voice: 'female',
    lyrics_source: 'written',
    lyrics: 'a whole other song',
    lyrics_timing: [line('verse', 'other one', 2), line('chorus', 'new two', 9), line('verse', 'other three', 17)],
  } as TrackMetadata;
  spliceLyrics(metadata, { lines: source, voice: 'female', lyricsSource: 'written' }, { start: 8, end: 16 });
  t.deepEqual(
    metadata.lyrics_timing?.map((l) => l.text),
    ['old one', 'new two', 'old three'],
  );
  t.is(metadata.lyrics, '[Verse]\nold one\n\n[Chorus]\nnew two\n\n[Verse]\nold three');
  // An extension sung only in its new sections keeps the source's lines before its old ending.
  const extended = {
    vocals: true,
    voice: 'male',
    lyrics_source: 'given',
    lyrics: 'x',
    lyrics_timing: [line('chorus', 'added', 30)],
  } as TrackMetadata;
  spliceLyrics(
    extended,
    { lines: source, voice: 'male', lyricsSource: 'written' },
    { start: 24, end: Number.POSITIVE_INFINITY },
  );
  t.deepEqual(
    extended.lyrics_timing?.map((l) => [l.text, l.start]),
    [
      ['old one', 2],
      ['old two', 8.0004],
      ['old three', 17],
      ['added', 30],
    ],
  );
});

/** The times and text of lines, as a listener and a karaoke display see them. */
const shown = (lines: readonly LyricTiming[]) => lines.map(({ text, start, end }) => ({ text, start, end }));

test('a real remix of a section with a new seed, of a song whose lyrics were written, keeps the source’s lines outside it, in its LRC and WebVTT too', async (t) => {
  const request: GenerationRequest = {
    prompt: 'a happy acoustic folk song about summer',
    duration: 30,
    style: 'folk',
    instrumental: false,
    seed: 11,
    lyrics: null,
    output: { formats: ['lrc', 'vtt'] },
  };
  const source: RenderedTrack = await renderTrack(request);
  const sourceLines = source.metadata.lyrics_timing ?? [];
  const plan = source.metadata.plan;
  const index = plan.findIndex((s, i) => i > 0 && sourceLines.some((l) => l.start >= s.start && l.start < s.end));
  t.true(index > 0, 'a sung section after the first');
  const section = plan[index]!;
  const pinned: GenerationRequest = {
    ...request,
    seed: 12,
    music: { bpm: source.metadata.bpm, key: source.metadata.key, timeSignature: source.metadata.meter },
    plan: plan.map(({ kind, bars, energy, instruments }) => ({ kind, bars, energy, instruments: [...instruments] })),
  };
  const remixed = await renderTrack(pinned, {
    splice: {
      kind: 'remix',
      wav: source.wav,
      sections: plan,
      section: index,
      sung: sungOf({ metadata: source.metadata as unknown as Record<string, unknown> }),
    },
  });
  const lines = remixed.metadata.lyrics_timing ?? [];
  const outside = (list: readonly LyricTiming[]) =>
    list.filter((l) => l.start < section.start - 0.001 || l.start >= section.end - 0.001);
  t.deepEqual(shown(outside(lines)), shown(outside(sourceLines)));
  t.true(outside(lines).length > 0);
  const lrc = Buffer.from(remixed.outputs.lrc!).toString('utf8');
  const vtt = Buffer.from(remixed.outputs.vtt!).toString('utf8');
  // The WebVTT cues of the kept lines are the source's, word timestamps and all.
  const cues = (text: string) =>
    new Set(
      text
        .split('\n\n')
        .slice(1)
        .map((cue) => cue.split('\n').slice(1).join('\n')),
    );
  const sourceCues = cues(Buffer.from(source.outputs.vtt!).toString('utf8'));
  const remixedCues = cues(vtt);
  const keptCues = [...sourceCues].filter((cue) =>
    outside(sourceLines).some((l) => cue.includes(l.text.split(' ').at(-1)!)),
  );
  t.true(keptCues.length > 0);
  for (const cue of keptCues) t.true(remixedCues.has(cue), `VTT has ${cue}`);
  for (const kept of outside(sourceLines)) t.true(lrc.includes(kept.text), `LRC has "${kept.text}"`);
  for (const kept of outside(sourceLines)) t.true(remixed.metadata.lyrics?.includes(kept.text), kept.text);
});
