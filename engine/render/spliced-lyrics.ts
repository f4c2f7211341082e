/**
 * What a spliced track sings (issue 29, point 4): outside the changed region the audio is the source's, so are its
 * sung lines; inside it, the new render's. The new render alone would report a whole other song when the lyrics
 * were written for it anew (a remix with a new seed), or only its new lines (an extension with section lyrics).
 */
import { timedLyricsText } from '../lyrics/index.ts';
import type { LyricTiming, TrackMetadata } from '../types.ts';

/** What the source sang, from its metadata: the lines with their times, the voice and where the words came from. */
export interface SungSource {
  lines: LyricTiming[];
  voice: TrackMetadata['voice'];
  lyricsSource: TrackMetadata['lyrics_source'];
}

/** Line times are reported to the millisecond, section bounds finer: a line on a section's first beat is inside it. */
const TOLERANCE = 0.001;

/** The metadata's lyrics made those of the spliced track: lines starting in [start, end) s are the new render's. */
export function spliceLyrics(metadata: TrackMetadata, sung: SungSource, region: { start: number; end: number }): void {
  const inside = (line: LyricTiming) => line.start >= region.start - TOLERANCE && line.start < region.end - TOLERANCE;
  const fresh = (metadata.lyrics_timing ?? []).filter(inside);
  const lines = [...sung.lines.filter((line) => !inside(line)), ...fresh].sort((a, b) => a.start - b.start);
  metadata.vocals = lines.length > 0;
  metadata.voice = lines.length === 0 ? null : (metadata.voice ?? sung.voice);
  metadata.lyrics_source = lines.length === 0 ? null : fresh.length > 0 ? metadata.lyrics_source : sung.lyricsSource;
  metadata.lyrics = lines.length === 0 ? null : timedLyricsText(lines);
  metadata.lyrics_timing = lines.length === 0 ? null : lines;
}
