/**
 * Messages between the pool (main thread) and a render worker. Plain data only: they are structured-cloned,
 * and the WAV/MIDI bytes are transferred, not copied.
 */
import { RequestError } from './errors.ts';
import type { GenerationRequest } from './types.ts';
import type { RenderedTrack, SpliceSource } from './track.ts';

export interface RenderCommand {
  type: 'render';
  jobId: number;
  request: GenerationRequest;
  /** Extend or redo a section of a source track: its WAV travels transferred, not copied. */
  splice?: SpliceSource;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; jobId: number; fraction: number }
  | { type: 'done'; jobId: number; track: RenderedTrack }
  | { type: 'failed'; jobId: number; error: SerializedError };

export interface SerializedError {
  name: string;
  message: string;
  /**
   * True when the error was written for the caller (a RequestError): its message may be shown to them.
   * Decided here, in the worker where the error arose, by its class, never by its name or text.
   */
  expose: boolean;
  /** Where it was thrown; for the server log only. */
  stack?: string;
  /** Extra fields of known engine errors (e.g. UnknownStyleError's style and allowed list). */
  details?: Record<string, unknown>;
}

/** Turns anything thrown into plain data that survives postMessage (worker errors are not native Errors). */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const details: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(error)) {
      if (key !== 'name' && key !== 'message' && key !== 'stack') details[key] = value;
    }
    return {
      name: error.name,
      message: error.message,
      expose: error instanceof RequestError,
      ...(error.stack ? { stack: error.stack } : {}),
      details,
    };
  }
  return { name: 'NonError', message: String(error), expose: false };
}
