/**
 * What every render queue does with one task, whichever queue feeds it (the in-process FairQueue of the embedded
 * default, or the PostgreSQL queue that `tunesmith worker` takes from): the engine request a task is, the log ids
 * it carries, the patch that completes it, and the error a failed render or save ends it with.
 */
import { RequestError, type GenerationRequest, type RenderedTrack } from '../../engine/index.ts';
import type { GenerationPatch } from '../store/repository.ts';
import { isStorageFull } from '../store/errors.ts';
import type { Generation, GenerationFiles } from '../domain/model.ts';
import type { Logger } from '../log.ts';
import { outputOf } from './output-options.ts';
import { SourceUnavailableError } from './splice-source.ts';

/** What was really thrown, for the log: a render worker's error is the cause the pool kept. */
export const thrownBy = (error: unknown): unknown =>
  error instanceof Error && error.cause instanceof Error ? error.cause : error;

/** The ids every task line carries, so one task (and the request that made it) can be followed. */
export const taskIds = (generation: Generation) => ({
  gen_id: generation.id,
  account_id: generation.account_id,
  req_id: generation.request_id ?? undefined,
});

export const requestOf = (generation: Generation): GenerationRequest => ({
  prompt: generation.prompt,
  duration: generation.duration,
  style: generation.style,
  instrumental: generation.instrumental,
  seed: generation.seed,
  lyrics: generation.lyrics,
  output: outputOf(generation),
  ...(generation.stems === true ? { stems: true } : {}),
  ...(generation.loop === true ? { loop: true } : {}),
  ...(generation.music ? { music: generation.music } : {}),
  ...(generation.plan ? { plan: generation.plan } : {}),
  ...(generation.custom_style ? { style: generation.custom_style.base, customStyle: generation.custom_style } : {}),
});

export const CANCELLED = 'The generation was cancelled.';

/** The patch that starts a render: one more attempt. */
export const startPatch = (generation: Generation, now: Date): GenerationPatch => ({
  status: 'processing',
  started_at: now.toISOString(),
  attempts: generation.attempts + 1,
  error: null,
});

/** The patch that ends a render well, once its files are stored. */
export const completedPatch = (track: RenderedTrack, files: GenerationFiles, now: Date): GenerationPatch => ({
  status: 'completed',
  completed_at: now.toISOString(),
  title: track.title,
  metadata: track.metadata as unknown as Record<string, unknown>,
  files,
  error: null,
});

export interface TaskFailure {
  code: string;
  message: string;
  /** What was thrown, when the message is not it: for the log, never for the caller. */
  internal?: unknown;
}

/** The patch that ends a task failed. */
export const failedPatch = (failure: TaskFailure, now: Date, patch: GenerationPatch = {}): GenerationPatch => ({
  ...patch,
  status: 'failed',
  completed_at: now.toISOString(),
  error: { code: failure.code, message: failure.message },
});

/** A render that threw something other than a worker crash: the engine's own refusal says why, anything else is ours. */
export function renderFailure(generation: Generation, error: unknown): TaskFailure {
  if (error instanceof RequestError) return { code: 'render_failed', message: error.message };
  if (error instanceof SourceUnavailableError) return { code: 'source_unavailable', message: error.message };
  // Not written for the caller: they get the request id to quote, the log gets everything under it.
  const requestId = generation.request_id ?? null;
  return {
    code: 'render_failed',
    message: `The render failed${requestId ? ` (request id ${requestId})` : ''}. Please try again.`,
    internal: error,
  };
}

/** The render worker crashed on every attempt the task had. */
export const crashedTooOften = (generation: Generation): TaskFailure => ({
  code: 'render_failed',
  message: `The render failed ${generation.attempts} times. Please try again, perhaps with a shorter duration.`,
});

/** A task found mid-render as often as it may start: the render itself is the likely cause. */
export const INTERRUPTED_TOO_OFTEN: TaskFailure = {
  code: 'render_interrupted',
  message: 'The render was interrupted too many times. Please try again.',
};

/**
 * A failure after the render (writing its audio, saving the record as completed): a full disk says so; anything
 * else is ours to find in the log under the request id.
 */
export function completionFailure(generation: Generation, error: unknown): TaskFailure {
  const requestId = generation.request_id ?? null;
  return isStorageFull(error)
    ? {
        code: 'storage_full',
        message: 'The server ran out of storage while saving the track. Please try again later.',
        internal: error,
      }
    : {
        code: 'internal_error',
        message: `The track could not be saved${requestId ? ` (request id ${requestId})` : ''}. Please try again.`,
        internal: error,
      };
}

/** The log line of a task that ended failed: in full, with the stack, when something was thrown. */
export function logFailure(logger: Logger, generation: Generation, failure: TaskFailure): void {
  const what = failure.code === 'cancelled' ? 'task cancelled' : 'task failed';
  const fields = { ...taskIds(generation), code: failure.code, reason: failure.message };
  if (failure.internal === undefined) logger.info(fields, what);
  else logger.error({ ...fields, err: thrownBy(failure.internal) }, what);
}
