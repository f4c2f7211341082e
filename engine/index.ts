/**
 * The engine's only door. src/ imports from here and nowhere else in engine/.
 *
 * Stages (each usable alone, each pure but the render):
 *   interpret(request) -> SongSpec -> compose(spec) -> Score -> render in a worker -> WAV + MIDI (+ MP3, Opus, FLAC, LRC, WebVTT)
 */
export type {
  GenerationRequest,
  MusicalFields,
  SongSpec,
  Score,
  Part,
  Note,
  Section,
  ChordEvent,
  TrackMetadata,
  StyleInfo,
  Preset,
  Role,
  Mode,
  PitchClass,
  TraceEntry,
  LyricTiming,
  OutputFormat,
  OutputOptions,
  LoopInfo,
  PlanKind,
  PlanKindAlias,
  PlanSection,
  PlanReport,
  CustomStyle,
} from './types.ts';
export { OUTPUT_FORMATS, PLAN_KINDS, PLAN_KIND_ALIASES, planKindOf } from './types.ts';
export { MP3_BITRATES } from './encode/mp3.ts';
export {
  EngineError,
  RequestError,
  UnknownStyleError,
  SilentTrackError,
  WorkerCrashedError,
  RenderAbortedError,
  RenderFailedError,
  InvalidPresetError,
  LyricsTooLongError,
  InvalidLyricsError,
} from './errors.ts';
export { checkRequest, planDuration } from './track.ts';
/** The API's track lengths (30–180 s); the engine itself renders 1–600 s so tests can make short clips. */
export { TRACK_SECONDS } from './interpret/plan.ts';
export { MAX_LYRICS_CHARS } from './lyrics/index.ts';
export { listStyles, getPreset } from './presets.ts';
export { makeCustomStyle, InvalidStyleError, STYLE_ROLES, type StyleChanges } from './custom-style.ts';
export { interpret } from './interpret/index.ts';
export {
  parseKeyName,
  isInstrumentName,
  roleWord,
  KEY_MODES,
  EXCLUDABLE_ROLES,
  MIN_BPM,
  MAX_BPM,
} from './interpret/fields.ts';
export { METERS, parseMeter } from './compose/meter.ts';
export { compose } from './compose/index.ts';
export { renderTrack, ENCODE_PROGRESS, type RenderedTrack, type TrackStem, type SpliceSource } from './track.ts';
export type { SungSource } from './render/spliced-lyrics.ts';
export { CROSSFADE_SECONDS } from './render/splice.ts';
export { createFileEncoder, type FileEncoder } from './encode-thread.ts';
export { LATER_FORMATS, type LaterFormat } from './encode/from-wav.ts';
export { createRenderPool, type RenderPool, type RenderPoolOptions, type RenderJobOptions } from './pool.ts';
