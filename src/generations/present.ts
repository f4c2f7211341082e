/**
 * The generation object as clients see it. Fields that only make sense in some states
 * (estimated_time, metadata, lyrics, download_urls, error) are left out in the others.
 */
import type { LiveState } from '../jobs/types.ts';
import type { DownloadLinks, DownloadSigner } from '../http/signing.ts';
import type { Generation, GenerationStatus } from '../store/types.ts';

export interface GenerationObject {
  id: string;
  object: 'generation';
  status: GenerationStatus;
  prompt: string;
  duration: number;
  style: string | null;
  instrumental: boolean;
  seed: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  estimated_time?: number | null;
  progress: number;
  queue_position: number | null;
  title: string | null;
  metadata?: Record<string, unknown>;
  lyrics?: string;
  download_urls?: DownloadLinks['download_urls'];
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
    duration: g.duration,
    style: g.style,
    instrumental: g.instrumental,
    seed: g.seed,
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
    for (const field of leaveOut) delete metadata[field];
    object.metadata = metadata;
    if (typeof lyrics === 'string') object.lyrics = lyrics;
  } else if (g.lyrics !== null && !g.instrumental && !terminal) {
    // Until the track is done, the lyrics that will be sung are the ones given.
    object.lyrics = g.lyrics;
  }
  if (g.status === 'completed' && g.files) Object.assign(object, signer.links(g.account_id, g.id, now));
  if (g.status === 'failed' && g.error) object.error = g.error;
  return object;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
