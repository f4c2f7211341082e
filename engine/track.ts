/**
 * The whole pipeline for one request, in the current thread: interpret -> compose -> render -> encode.
 * Workers call this; so do tests and benchmarks that want a track without a pool.
 */
import type { GenerationRequest, Score, SongSpec, TrackMetadata } from './types.ts';
import { interpret } from './interpret/index.ts';
import { compose } from './compose/index.ts';
import { renderScore } from './render/index.ts';
import { encodeMidi, encodeWav } from './encode/index.ts';

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
  const sung = score.parts.some((part) => part.role === 'vocal' && part.notes.length > 0);
  return {
    genre: spec.genre,
    bpm: score.bpm,
    key: `${spec.key.tonic} ${MODE_NAMES[spec.key.mode]}`,
    mode: spec.key.mode,
    meter: `${spec.meter.beatsPerBar}/${spec.meter.beatUnit}`,
    instruments: [...new Set(score.parts.map((part) => part.instrument))],
    sections: score.sections.map((section, index) => ({
      kind: section.kind,
      start: Math.round(section.time * 100) / 100,
      end: Math.round(ends[index]! * 100) / 100,
    })),
    // True only when a voice is in the score: the singer is not built yet, so a track that asked for one says so.
    vocals: sung,
    lyrics: null,
    lyrics_timing: null,
    trace: spec.vocals.enabled && !sung
      ? [...spec.trace, { source: 'vocals', effect: 'a sung voice was asked for, but the engine cannot sing yet: this track is instrumental' }]
      : spec.trace,
  };
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
