/**
 * One thread that makes a track's MP3, Opus or FLAC from its WAV when first fetched, away from the event loop
 * and from the render threads (a render queue must not hold up a download, nor a download a render). Started on
 * first use and left idle (unreferenced) between encodes; jobs wait their turn in order.
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { OutputOptions } from './types.ts';
import { encodeFromWav, type LaterFormat } from './encode/from-wav.ts';

export interface FileEncoder {
  /**
   * `format`'s file from the WAV's bytes (copied to the thread: the caller keeps its array). `onPiece`: the MP3's
   * bytes as the thread encodes them, to stream (encodeMp3: the file but for its first frame's tag); no other
   * format gives pieces.
   */
  encode(
    wav: Uint8Array,
    format: LaterFormat,
    options?: Pick<OutputOptions, 'mp3Bitrate'>,
    onPiece?: (piece: Uint8Array) => void,
  ): Promise<Uint8Array>;
  /** Rejects the encodes not done and stops the thread. */
  close(): Promise<void>;
}

interface EncodeCommand {
  jobId: number;
  wav: Uint8Array;
  format: LaterFormat;
  options: Pick<OutputOptions, 'mp3Bitrate'>;
  /** Whether the caller wants the pieces as they come. */
  pieces: boolean;
}

type EncodeReply =
  | { jobId: number; bytes: Uint8Array }
  | { jobId: number; piece: Uint8Array }
  | { jobId: number; error: string };

interface Pending {
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
  onPiece?: ((piece: Uint8Array) => void) | undefined;
}

const bootstrap = new URL('./worker-bootstrap.js', import.meta.url);
const entry = new URL('./encode-worker.ts', import.meta.url);

export function createFileEncoder(): FileEncoder {
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextJobId = 1;
  let closed = false;

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(bootstrap, { workerData: { entry: entry.href } });
    started.on('message', (reply: EncodeReply) => {
      const job = pending.get(reply.jobId);
      if ('piece' in reply) {
        job?.onPiece?.(reply.piece);
        return;
      }
      pending.delete(reply.jobId);
      if (pending.size === 0) started.unref();
      if (!job) return;
      if ('bytes' in reply) job.resolve(reply.bytes);
      else job.reject(new Error(reply.error));
    });
    const stopped = (error?: Error) => {
      if (worker !== started) return;
      worker = null;
      const why = error ?? new Error('The encode thread stopped');
      for (const job of pending.values()) job.reject(why);
      pending.clear();
    };
    started.on('error', stopped);
    started.on('exit', () => stopped());
    worker = started;
    return started;
  }

  return {
    encode(wav, format, options = {}, onPiece = undefined) {
      if (closed) return Promise.reject(new Error('The encode thread is closed'));
      return new Promise((resolve, reject) => {
        const jobId = nextJobId++;
        pending.set(jobId, { resolve, reject, onPiece });
        const target = thread();
        target.ref();
        target.postMessage({ jobId, wav, format, options, pieces: onPiece !== undefined } satisfies EncodeCommand);
      });
    },
    async close() {
      closed = true;
      const running = worker;
      worker = null;
      for (const job of pending.values()) job.reject(new Error('The encode thread is closed'));
      pending.clear();
      await running?.terminate();
    },
  };
}

/** The thread's side (engine/encode-worker.ts): each command gets one reply, the file (transferred) or what went wrong. */
export function serveEncodes(): void {
  const port = parentPort;
  if (isMainThread || !port) throw new Error('serveEncodes() is only available inside the encode thread');
  port.on('message', async (command: EncodeCommand) => {
    try {
      const { jobId } = command;
      // Copied, not transferred: the encoder keeps each piece for the whole file.
      const onPiece = command.pieces
        ? (piece: Uint8Array) => port.postMessage({ jobId, piece } satisfies EncodeReply)
        : undefined;
      const bytes = await encodeFromWav(command.wav, command.format, command.options, onPiece);
      port.postMessage({ jobId, bytes } satisfies EncodeReply, transferable(bytes));
    } catch (error) {
      port.postMessage({
        jobId: command.jobId,
        error: String((error as Error)?.message ?? error),
      } satisfies EncodeReply);
    }
  });
}

/** The array's buffer, to transfer, when the array is all of it (a view into a larger buffer is copied). */
function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? [bytes.buffer as ArrayBuffer] : [];
}
