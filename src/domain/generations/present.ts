/**
 * The generation object as clients see it. Fields that only make sense in some states
 * (estimated_time, metadata, lyrics, download_urls, error) are left out in the others.
 */
import { interpret } from '../../../engine/index.ts';
import { availableKinds } from './files.ts';
import type { LiveState } from '../../jobs/types.ts';
import type { DownloadLinks, DownloadSigner } from '../download-links.ts';
import type { Generation, GenerationSource, GenerationStatus } from '../model.ts';

export interface GenerationObject {
  id: string;
  object: 'generation';
  status: GenerationStatus;
  prompt: string;
  duration: number;
  style: string | null;
  instrumental: boolean;
  seed: number;
  /** Shared by the generations one `variations` request made; absent on a generation made alone. */
  batch_id?: string;
  /** The generation this one was made from by POST …/extend or …/remix; absent on one made from a prompt. */
  source?: GenerationSource;
  /** The request's audio options (defaults filled in). */
  sample_rate: 44100 | 48000;
  bit_depth: 16 | 24;
  bitrate: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  estimated_time?: number | null;
  progress: number;
  queue_position: number | null;
  title: string | null;
  /** The track as data, when completed: lifted from the engine's metadata so clients need not dig for it. */
  bpm?: number;
  key?: string;
  time_signature?: string;
  sections?: { kind: string; start: number; end: number; bars?: number }[];
  loudness?: { integrated: number; true_peak: number } | null;
  /** The composition plan the engine played, in the shape POST /v1/generate's `sections` takes: edit it and send it back. */
  plan?: { kind: string; bars: number; energy: number; instruments: string[]; start: number; end: number }[];
  metadata?: Record<string, unknown>;
  lyrics?: string;
  download_urls?: DownloadLinks['download_urls'];
  stem_urls?: DownloadLinks['stem_urls'];
  download_expires_at?: string;
  error?: { code: string; message: string };
}

export function isTerminal(status: GenerationStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** The heavy parts of `metadata` that lists leave out unless asked for with `?expand=`. */
export const EXPANDABLE = ['trace', 'lyrics_timing'] as const;
export type Expandable = (typeof EXPANDABLE)[number];

/** `leaveOut`: metadata fields to drop (a list's items); the single-generation GET keeps everything. */
export function presentGeneration(
  g: Generation,
  live: LiveState | undefined,
  signer: DownloadSigner,
  now: Date,
  leaveOut: readonly Expandable[] = [],
): GenerationObject {
  const terminal = isTerminal(g.status);
  const object: GenerationObject = {
    id: g.id,
    object: 'generation',
    status: g.status,
    prompt: g.prompt,
    duration: g.loop === true && g.status !== 'completed' ? (loopSeconds(g) ?? g.duration) : g.duration,
    style: g.style,
    instrumental: g.instrumental,
    seed: g.seed,
    ...(g.batch ? { batch_id: g.batch.id } : {}),
    ...(g.source ? { source: { ...g.source } } : {}),
    sample_rate: g.encoding?.sample_rate ?? 44100,
    bit_depth: g.encoding?.bit_depth ?? 16,
    bitrate: g.encoding?.bitrate ?? null,
    created_at: g.created_at,
    started_at: g.started_at,
    completed_at: g.completed_at,
    // null only in the moment between a restart and the queue taking the task back.
    ...(terminal ? {} : { estimated_time: live ? round(live.estimated_time, 1) : null }),
    progress: g.status === 'completed' ? 1 : terminal ? 0 : round(live?.progress ?? 0, 3),
    queue_position: terminal ? null : (live?.queue_position ?? null),
    title: g.title,
  };
  if (g.status === 'completed' && g.metadata) {
    // The engine's metadata carries the sung text; the API shows it once, as the top-level `lyrics`.
    const { lyrics, ...metadata } = g.metadata;
    Object.assign(object, trackData(metadata));
    // A loop is whole bars: its length is what was played (metadata.loop.seconds), not the seconds asked.
    const loop = metadata.loop as { seconds?: unknown } | undefined;
    if (typeof loop?.seconds === 'number') object.duration = loop.seconds;
    for (const field of leaveOut) delete metadata[field];
    object.metadata = metadata;
    if (typeof lyrics === 'string') object.lyrics = lyrics;
  } else if (g.lyrics !== null && !g.instrumental && !terminal) {
    // Until the track is done, the lyrics that will be sung are the ones given.
    object.lyrics = g.lyrics;
  }
  if (g.status === 'completed' && g.files)
    Object.assign(
      object,
      signer.links(g.account_id, g.id, now, availableKinds(g.files), Object.keys(g.files.stems ?? {})),
    );
  if (g.status === 'failed' && g.error) object.error = g.error;
  return object;
}

/**
 * A loop's length before it is rendered: the whole bars nearest the seconds asked, at the tempo the engine will
 * choose. Interpretation is pure (the request and its seed decide it), so this is the length the render plays, known
 * from creation; undefined should it not be worked out (then the seconds asked stand until the render reports).
 */
function loopSeconds(g: Generation): number | undefined {
  try {
    const custom = g.custom_style;
    const spec = interpret({
      prompt: g.prompt,
      duration: g.duration,
      style: custom ? custom.base : g.style,
      instrumental: g.instrumental,
      seed: g.seed,
      lyrics: g.lyrics,
      loop: true,
      ...(g.music ? { music: g.music } : {}),
      ...(custom ? { customStyle: custom } : {}),
    });
    return Math.round(spec.duration * 1000) / 1000;
  } catch {
    return undefined;
  }
}

/** bpm, key, time signature, sections and loudness from the stored metadata (loudness is null on older records). */
function trackData(
  metadata: Record<string, unknown>,
): Pick<GenerationObject, 'bpm' | 'key' | 'time_signature' | 'sections' | 'plan' | 'loudness'> {
  const data: Pick<GenerationObject, 'bpm' | 'key' | 'time_signature' | 'sections' | 'plan' | 'loudness'> = {};
  if (typeof metadata.bpm === 'number') data.bpm = metadata.bpm;
  if (typeof metadata.key === 'string') data.key = metadata.key;
  if (typeof metadata.meter === 'string') data.time_signature = metadata.meter;
  if (Array.isArray(metadata.sections)) data.sections = metadata.sections as NonNullable<GenerationObject['sections']>;
  // Absent on records made before plans existed.
  if (Array.isArray(metadata.plan)) data.plan = metadata.plan as NonNullable<GenerationObject['plan']>;
  data.loudness = (metadata.loudness as GenerationObject['loudness'] | undefined) ?? null;
  return data;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
