/**
 * The whole pipeline for one request, in the current thread: interpret -> compose -> render -> encode.
 * Workers call this; so do tests and benchmarks that want a track without a pool.
 */
import { pulseBpm } from './compose/meter.ts';
import type { GenerationRequest, Score, SongSpec, TraceEntry, TrackMetadata } from './types.ts';
import { interpret } from './interpret/index.ts';
import { checkLyricsFit, compose } from './compose/index.ts';
import { renderScore } from './render/index.ts';
import { encodeMidi, encodeWav } from './encode/index.ts';
import { lyricsText } from './lyrics/index.ts';

export interface RenderedTrack {
  wav: Uint8Array;
  midi: Uint8Array;
  title: string;
  metadata: TrackMetadata;
  seed: number;
  audioSeconds: number;
  renderMs: number;
}

export interface RenderTrackOptions {
  onProgress?(fraction: number): void;
}

const MODE_NAMES: Record<SongSpec['key']['mode'], string> = {
  major: 'major', minor: 'minor', dorian: 'Dorian', mixolydian: 'Mixolydian', lydian: 'Lydian', phrygian: 'Phrygian', harmonicMinor: 'harmonic minor',
};

/** What the service shows about a track, read from the spec and the composed score. */
export function trackMetadata(spec: SongSpec, score: Score): TrackMetadata {
  const ends = score.sections.map((_, index) => score.sections[index + 1]?.time ?? score.duration);
  const vocal = score.vocal && score.vocal.notes.length > 0 ? score.vocal : null;
  return {
    genre: spec.genre,
    // The pulse a listener taps, as the request's `bpm` counts it: dotted quarters in 6/8, not eighths.
    bpm: Math.round(pulseBpm(score.bpm, spec.meter) * 10) / 10,
    key: `${spec.key.tonic} ${MODE_NAMES[spec.key.mode]}`,
    mode: spec.key.mode,
    meter: `${spec.meter.beatsPerBar}/${spec.meter.beatUnit}`,
    instruments: [...new Set(score.parts.map((part) => part.instrument))],
    sections: score.sections.map((section, index) => ({
      kind: section.kind,
      start: Math.round(section.time * 100) / 100,
      end: Math.round(ends[index]! * 100) / 100,
    })),
    vocals: vocal !== null,
    voice: vocal ? vocal.gender : null,
    lyrics_source: vocal ? vocal.lyrics.source : null,
    lyrics: vocal ? lyricsText(vocal.lyrics) : null,
    lyrics_timing: vocal ? vocal.lines : null,
    trace: [...spec.trace, ...vocalTrace(spec, vocal)],
    warnings: [...spec.warnings],
  };
}

/**
 * Throws when the request's lyrics cannot be sung: nothing singable (InvalidLyricsError) or more lines than the
 * track has room for (LyricsTooLongError, saying how many fit). Interpretation and form only: milliseconds.
 */
export function checkLyrics(request: GenerationRequest): void {
  checkLyricsFit(interpret(request));
}

function vocalTrace(spec: SongSpec, vocal: Score['vocal']): TraceEntry[] {
  if (!spec.vocals.enabled) return [];
  if (!vocal) return [{ source: 'form', effect: 'no section of this track is long enough to sing a line: it stays instrumental' }];
  const lines = vocal.lines.length;
  return [{
    source: vocal.lyrics.source === 'given' ? 'lyrics' : 'prompt',
    effect: `${vocal.lyrics.source === 'given' ? 'the given lyrics are' : 'lyrics written from the prompt are'} sung in ${lines} line${lines === 1 ? '' : 's'} by a ${vocal.gender} voice${vocal.backing.length > 0 ? ', with backing "oohs" in the chorus' : ''}`,
  }];
}

export async function renderTrack(request: GenerationRequest, options: RenderTrackOptions = {}): Promise<RenderedTrack> {
  const started = performance.now();
  const spec = interpret(request);
  const score = compose(spec);
  const audio = await renderScore(score, { onProgress: (fraction) => options.onProgress?.(fraction * 0.97) });
  const wav = encodeWav(audio.left, audio.right, audio.sampleRate);
  const midi = encodeMidi(score);
  options.onProgress?.(1);
  return {
    wav,
    midi,
    title: spec.title,
    metadata: trackMetadata(spec, score),
    seed: spec.seed,
    audioSeconds: audio.left.length / audio.sampleRate,
    renderMs: Math.round(performance.now() - started),
  };
}
