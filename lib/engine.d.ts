/**
 * Tunesmith's engine as a library: `import { renderTrack, interpret, listStyles } from 'tunesmith/engine'`.
 * A request is POST /v1/generate's body, with the same validation and defaults, plus `formats`.
 * (src/library/engine.ts implements these types, so the two cannot drift apart.)
 */

/** A plan section, as POST /v1/generate's `sections` takes it. */
export interface TrackSection {
  kind: string;
  /** Whole bars; or give `seconds`; neither: the section shares what `duration` leaves. */
  bars?: number;
  seconds?: number;
  /** 0–1. */
  energy?: number;
  /** Only these instruments or roles play ("piano", "drums", "bass"...). */
  instruments?: string[];
  lyrics?: string;
}

/** POST /v1/generate's fields (but `callback_url` and `variations`, which only a server has a use for). */
export interface TrackRequest {
  prompt: string;
  /** Seconds, 30–180. @default 60 */
  duration?: number | null;
  /** A name from listStyles(); omitted: inferred from the prompt. */
  style?: string | null;
  /** @default false */
  instrumental?: boolean | null;
  /** The same request and seed give the same track. Omitted: drawn at random (the track reports it). */
  seed?: number | null;
  lyrics?: string | null;
  bpm?: number | null;
  /** "F# minor", "Bb major", "D dorian". */
  key?: string | null;
  /** "4/4", "3/4", "6/8"... */
  time_signature?: string | null;
  /** Instruments or roles to leave out. */
  exclude?: string[] | null;
  stems?: boolean | null;
  loop?: boolean | null;
  /** 44100 or 48000. @default 44100 */
  sample_rate?: number | null;
  /** 16 or 24. @default 16 */
  bit_depth?: number | null;
  /** A constant MP3 bitrate in kbps; omitted: VBR. */
  bitrate?: number | null;
  sections?: TrackSection[] | null;
  /** Files to make besides the WAV and the MIDI, which always come. @default [] */
  formats?: ('mp3' | 'opus' | 'flac')[];
  /** Any other field of POST /v1/generate (the musical fields the API takes). */
  [field: string]: unknown;
}

export interface Track {
  title: string;
  seed: number;
  /** Seconds, as played (a loop's whole bars). */
  duration: number;
  wav: Uint8Array;
  midi: Uint8Array;
  mp3?: Uint8Array;
  opus?: Uint8Array;
  flac?: Uint8Array;
  /** With `stems: true`: one WAV per part that plays. */
  stems?: { role: string; wav: Uint8Array }[];
  /** What GET /v1/generation/{id} reports as `metadata`: bpm, key, meter, sections, plan, instruments, trace... */
  metadata: Record<string, unknown>;
}

export interface StyleInfo {
  name: string;
  description: string;
}

/** Renders a track in this thread. Rejects with ValidationError for a request the API would refuse (400). */
export function renderTrack(request: TrackRequest, options?: { onProgress?(fraction: number): void }): Promise<Track>;

/** What the engine makes of a request before composing it: tempo, key, meter, form, instruments and why. */
export function interpret(request: TrackRequest): Record<string, unknown> & {
  bpm: number;
  duration: number;
  seed: number;
};

export function listStyles(): StyleInfo[];

/** A request the API would answer with a 400: `param` names the field, `code` is the API's error code. */
export class ValidationError extends Error {
  readonly param: string | undefined;
  readonly code: string;
}

/** The engine could not make the track (lyrics that do not fit, say). */
export class EngineError extends Error {}
