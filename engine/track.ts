/**
 * The whole pipeline for one request, in the current thread: interpret -> compose -> render -> encode.
 * Workers call this; so do tests and benchmarks that want a track without a pool.
 */
import { at } from './checked.ts';
import { pulseBpm } from './compose/meter.ts';
import type {
  GenerationRequest,
  LoopInfo,
  PlanKind,
  PlanReport,
  Role,
  Score,
  SectionKind,
  SongSpec,
  TraceEntry,
  TrackMetadata,
} from './types.ts';
import { PLAN_KIND_ALIASES, ROLES } from './types.ts';
import { interpret } from './interpret/index.ts';
import { checkLyricsFit, checkSound, compose } from './compose/index.ts';
import { renderScore, SAMPLE_RATE } from './render/index.ts';
import { free } from './render/free.ts';
import { encodeMidi, encodeOutputs, encodeWav, type EncodedOutputs } from './encode/index.ts';
import { resampleStereo } from './encode/resample.ts';
import { integratedLoudness, truePeakDb } from './render/master/index.ts';
import { lyricsText } from './lyrics/index.ts';
import { spliceLyrics, type SungSource } from './render/spliced-lyrics.ts';
import wavefile from 'wavefile';
import {
  extendRegion,
  levelMatch,
  pcmToFloat,
  remixRegion,
  splice,
  type ReportedSection,
  type SpliceRegion,
  type StereoPcm,
} from './render/splice.ts';

/** One role's share of the track (GenerationRequest.stems), the same length as the mix; the stems add up to it. */
export interface TrackStem {
  role: Role;
  wav: Uint8Array;
}

export interface RenderedTrack {
  wav: Uint8Array;
  midi: Uint8Array;
  /** The formats request.output asked for (lrc and vtt only when the track is sung). */
  outputs: EncodedOutputs;
  /** Only when the request asked for stems: one per role that plays, in a fixed role order. */
  stems?: TrackStem[];
  title: string;
  metadata: TrackMetadata;
  seed: number;
  audioSeconds: number;
  renderMs: number;
  /** Of renderMs, the time spent encoding the WAV and the other formats. */
  encodeMs: number;
}

/**
 * Where encoding starts on the progress scale: rendering reports 0 to this, encoding the rest (every format
 * together costs about as much as the render itself; the WAV alone a moment).
 */
export const ENCODE_PROGRESS = 0.9;

export interface RenderTrackOptions {
  onProgress?(fraction: number): void;
  /**
   * Extend or redo one section of a source track (issue 16, items 4-5): the new render is spliced into the
   * source WAV's PCM so that every frame outside the changed region is the source's, and every output format is
   * encoded from that spliced master. The request must be the source's (same spec, seed and encoding), with only
   * the duration (extend) or the section's fields (redo) changed.
   */
  splice?: SpliceSource;
}

export type SpliceSource = (
  | { kind: 'extend'; wav: Uint8Array; sections: ReportedSection[] }
  | { kind: 'remix'; wav: Uint8Array; sections: ReportedSection[]; section: number }
) & {
  /** What the source sang (no lines when instrumental): its lyrics outside the changed region. Absent: not known. */
  sung?: SungSource;
  /**
   * The source's stems (its 44.1 kHz WAVs), when the request asks for stems: they are spliced as the mix is, so
   * the derived track's stems still add up to its mix. Absent: the stems are the new render's alone.
   */
  stems?: TrackStem[];
};

/** Seconds of the track the new render replaces: the source's ending onwards, or the redone section. */
function splicedRegion(source: SpliceSource): { start: number; end: number } {
  if (source.kind === 'extend') return { start: source.sections.at(-1)?.start ?? 0, end: Number.POSITIVE_INFINITY };
  const section = source.sections[source.section];
  return section ? { start: section.start, end: section.end } : { start: 0, end: Number.POSITIVE_INFINITY };
}

/**
 * The rendered master with the source's PCM outside the changed region (see engine/render/splice.ts), at the
 * source WAV's rate: a 48 kHz source was resampled from its 44.1 kHz master, so the new render is resampled the
 * same way and the splice works on 48 kHz frames (the encoder then has nothing left to resample).
 */
function spliced(
  audio: { left: Float32Array; right: Float32Array; sampleRate: number },
  source: SpliceSource,
): StereoPcm & { sampleRate: number; gain: number } {
  const { pcm, sampleRate } = decodePcm(source.wav);
  const [left, right] = resampleStereo(audio.left, audio.right, audio.sampleRate, sampleRate);
  // A redo keeps the source's length. A plan holds whole bars, so a source whose ending ran a fraction of a bar
  // longer renders a little shorter: the new render is cut or padded to the source's frames.
  const frames = pcm.left.length;
  const rendered =
    source.kind === 'extend' ? { left, right } : { left: fitted(left, frames), right: fitted(right, frames) };
  const region = regionOf(source, sampleRate, rendered.left.length);
  const gain = levelMatch(pcm, rendered, region);
  const out = { ...splice(pcm, rendered, region, sampleRate, gain), sampleRate, gain };
  // The copies made on the way go now (the caller's render is its own to free).
  for (const copy of new Set([pcm.left, pcm.right, left, right, rendered.left, rendered.right]))
    if (copy !== audio.left && copy !== audio.right && copy !== out.left && copy !== out.right) free(copy);
  return out;
}

/** The frames of a derived render (of `frames`, at `sampleRate`) that hold new material. */
function regionOf(source: SpliceSource, sampleRate: number, frames: number): SpliceRegion {
  return source.kind === 'extend'
    ? extendRegion(source.sections, sampleRate, frames)
    : remixRegion(source.sections, source.section, sampleRate, frames);
}

/** A 16- or 24-bit WAV's samples as the float master that encodes back to them exactly (splice.ts pcmToFloat). */
function decodePcm(bytes: Uint8Array): { pcm: StereoPcm; sampleRate: number } {
  const wav = new wavefile.WaveFile(bytes);
  const bits = Number((wav.fmt as { bitsPerSample: number }).bitsPerSample);
  if (bits !== 16 && bits !== 24)
    throw new RangeError(`The source WAV is ${bits}-bit; only 16- and 24-bit sources can be spliced`);
  const sampleRate = Number((wav.fmt as { sampleRate: number }).sampleRate);
  const channels = wav.getSamples(false, Int32Array) as unknown as [Int32Array, Int32Array];
  const pcm = pcmToFloat(channels, bits);
  free(...channels);
  return { pcm, sampleRate };
}

/**
 * The derived track's stems: each role's new stem spliced into the source's stem of that role exactly as the mix
 * was (the same region, crossfades and level gain), so outside the region they are the source's stems, which add
 * up to the source's mix there, and inside they add up to the new material as the mix holds it. A role only one
 * side plays is silence on the other. One stem's samples at a time.
 */
function splicedStems(
  fresh: readonly TrackStem[],
  source: SpliceSource & { stems: TrackStem[] },
  renderedFrames: number,
  gain: number,
): TrackStem[] {
  const made = new Map(fresh.map((stem) => [stem.role, stem.wav]));
  const kept = new Map(source.stems.map((stem) => [stem.role, stem.wav]));
  const sourceFrames = source.stems[0] ? decodePcm(source.stems[0].wav).pcm.left.length : renderedFrames;
  const frames = source.kind === 'extend' ? renderedFrames : sourceFrames;
  const region = regionOf(source, SAMPLE_RATE, frames);
  const silence = (length: number): StereoPcm => ({ left: new Float32Array(length), right: new Float32Array(length) });
  return ROLES.filter((role) => made.has(role) || kept.has(role)).map((role) => {
    const wav = made.get(role);
    const old = kept.get(role);
    const rendered = wav ? decodePcm(wav).pcm : silence(renderedFrames);
    const fittedRendered = { left: fitted(rendered.left, frames), right: fitted(rendered.right, frames) };
    const out = splice(old ? decodePcm(old).pcm : silence(sourceFrames), fittedRendered, region, SAMPLE_RATE, gain);
    return { role, wav: encodeWav(out.left, out.right, SAMPLE_RATE) };
  });
}

/** `samples` cut or padded with silence to `frames`. */
function fitted(samples: Float32Array, frames: number): Float32Array {
  if (samples.length === frames) return samples;
  const out = new Float32Array(frames);
  out.set(samples.subarray(0, frames));
  return out;
}

const MODE_NAMES: Record<SongSpec['key']['mode'], string> = {
  major: 'major',
  minor: 'minor',
  dorian: 'Dorian',
  mixolydian: 'Mixolydian',
  lydian: 'Lydian',
  phrygian: 'Phrygian',
  harmonicMinor: 'harmonic minor',
};

/** What the service shows about a track, read from the spec, the composed score and the master's loudness. */
export function trackMetadata(spec: SongSpec, score: Score, loudness: TrackMetadata['loudness'] = null): TrackMetadata {
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
      end: Math.round(at(ends, index) * 100) / 100,
      bars: section.bars,
    })),
    plan: planReport(score, ends),
    loudness,
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
 * The checks before a task is accepted, each throwing a RequestError that says why: a track that would be silent
 * (SilentTrackError), lyrics with nothing singable (InvalidLyricsError) or more lines than the track has room for
 * (LyricsTooLongError, saying how many fit). Interpretation and form only: milliseconds.
 */
export function checkRequest(request: GenerationRequest): void {
  const spec = interpret(request);
  checkSound(spec);
  checkLyricsFit(spec);
}

function vocalTrace(spec: SongSpec, vocal: Score['vocal']): TraceEntry[] {
  if (!spec.vocals.enabled) return [];
  if (!vocal)
    return [
      { source: 'form', effect: 'no section of this track is long enough to sing a line: it stays instrumental' },
    ];
  const lines = vocal.lines.length;
  return [
    {
      source: vocal.lyrics.source === 'given' ? 'lyrics' : 'prompt',
      effect: `${vocal.lyrics.source === 'given' ? 'the given lyrics are' : 'lyrics written from the prompt are'} sung in ${lines} line${lines === 1 ? '' : 's'} by a ${vocal.gender} voice${vocal.backing.length > 0 ? ', with a backing choir in the chorus' : ''}`,
    },
  ];
}

export async function renderTrack(
  request: GenerationRequest,
  options: RenderTrackOptions = {},
): Promise<RenderedTrack> {
  const started = performance.now();
  const spec = interpret(request);
  const score = compose(spec);
  // Each stem is encoded as soon as it is mastered: one stem's floats at a time, not every one's (issue 29).
  const stems: TrackStem[] = [];
  const rendered = await renderScore(score, {
    onProgress: (fraction) => options.onProgress?.(fraction * ENCODE_PROGRESS),
    stems: request.stems === true,
    onStem: (stem) => stems.push({ role: stem.role, wav: encodeWav(stem.left, stem.right, SAMPLE_RATE) }),
  });
  const renderedFrames = rendered.left.length;
  const splicedAudio = options.splice ? spliced(rendered, options.splice) : undefined;
  const audio = splicedAudio
    ? { left: splicedAudio.left, right: splicedAudio.right, sampleRate: splicedAudio.sampleRate }
    : rendered;
  if (audio.left !== rendered.left) free(rendered.left, rendered.right);
  const loudness = {
    // Mastering measured the rendered master already; a spliced one is measured here.
    integrated: round1(
      audio === rendered && rendered.loudness !== undefined
        ? rendered.loudness
        : integratedLoudness(audio.left, audio.right, audio.sampleRate),
    ),
    true_peak: round1(truePeakDb(audio.left, audio.right)),
  };
  const metadata = trackMetadata(spec, score, loudness);
  if (options.splice?.sung) spliceLyrics(metadata, options.splice.sung, splicedRegion(options.splice));
  const encodeStarted = performance.now();
  const { wav, outputs } = await encodeOutputs(
    {
      left: audio.left,
      right: audio.right,
      sampleRate: audio.sampleRate,
      title: spec.title,
      lyrics: metadata.lyrics_timing,
    },
    request.output,
    (done) => options.onProgress?.(ENCODE_PROGRESS + done * (1 - ENCODE_PROGRESS)),
  );
  const encodeMs = Math.round(performance.now() - encodeStarted);
  const audioSeconds = audio.left.length / audio.sampleRate;
  free(audio.left, audio.right);
  const midi = encodeMidi(score);
  if (spec.loop === true) metadata.loop = loopInfo(request, score);
  options.onProgress?.(1);
  const track: RenderedTrack = {
    wav,
    midi,
    outputs,
    title: spec.title,
    metadata,
    seed: spec.seed,
    audioSeconds,
    renderMs: Math.round(performance.now() - started),
    encodeMs,
  };
  const sourceStems = options.splice?.stems;
  if (request.stems === true)
    track.stems =
      options.splice && sourceStems && splicedAudio
        ? splicedStems(stems, { ...options.splice, stems: sourceStems }, renderedFrames, splicedAudio.gain)
        : stems;
  return track;
}

function loopInfo(request: GenerationRequest, score: Score): LoopInfo {
  const bars = score.sections.reduce((sum, section) => sum + section.bars, 0);
  return { bars, seconds: Math.round(score.duration * 1000) / 1000, requested_seconds: request.duration };
}

/** To 0.1 dB. Silence measures −∞, which JSON cannot carry: it is shown as −70, BS.1770's absolute gate. */
function round1(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 10) / 10 : -70;
}

/** The engine's kinds as a plan names them: a build leads in as a pre-chorus does, a theme is a verse, a climax a chorus. */
const AS_PLAN_KIND: Record<SectionKind, PlanKind> = {
  intro: 'intro',
  verse: 'verse',
  prechorus: 'prechorus',
  chorus: 'chorus',
  bridge: 'bridge',
  drop: 'drop',
  breakdown: 'breakdown',
  outro: 'outro',
  ...PLAN_KIND_ALIASES,
};

/**
 * The form actually played, in the shape of the request's `sections`: sending it back (start and end are read
 * and ignored) gives the same sections, bars, energies and roles. Bars are whole: a fractional last bar rings out.
 */
function planReport(score: Score, ends: number[]): PlanReport[] {
  return score.sections.map((section, index) => ({
    kind: section.planKind ?? AS_PLAN_KIND[section.kind],
    bars: Math.max(1, Math.round(section.bars)),
    energy: Math.round(section.energy * 100) / 100,
    instruments: [...section.roles],
    start: Math.round(section.time * 1e6) / 1e6,
    end: Math.round(at(ends, index) * 1e6) / 1e6,
    ...(section.lyrics !== undefined ? { lyrics: section.lyrics } : {}),
  }));
}

/** A request's length in seconds once its composition plan (if any) is resolved at its tempo; throws RequestError for a plan that cannot be played. */
export function planDuration(request: GenerationRequest): number {
  const spec = interpret(request);
  // A plan's lyrics must fit their own sections: checked here, where the plan is measured, as the API accepts it.
  if (spec.plan?.some((section) => section.lyrics !== null)) checkLyricsFit(spec);
  return spec.duration;
}
