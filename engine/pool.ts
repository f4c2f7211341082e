/**
 * The render pool: long-lived worker threads, one render at a time each. This is the only module that
 * imports node:worker_threads; the worker side reaches its parent through workerChannel().
 */
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, type TransferListItem } from 'node:worker_threads';
import {
  EngineError,
  InvalidLyricsError,
  LyricsTooLongError,
  RenderAbortedError,
  RenderFailedError,
  RequestError,
  UnknownStyleError,
  WorkerCrashedError,
} from './errors.ts';
import { serializeError, type RenderCommand, type SerializedError, type WorkerMessage } from './protocol.ts';
import type { RenderedTrack, RenderTrackOptions, SpliceSource } from './track.ts';
import type { GenerationRequest } from './types.ts';

export interface RenderPoolOptions {
  /** Render threads. @default os.availableParallelism() */
  workers?: number;
  /** The worker's TypeScript entry module. A test seam: tests pass a fake worker. @default engine/worker.ts */
  workerEntry?: URL;
  /**
   * How long a cancelled render may keep its thread before the thread is stopped by force. Stopping a thread
   * inside node-web-audio-api's native render aborts the whole process (measured on 1.0.9), so a cancelled
   * render is normally left to finish and its result dropped; force is only for a thread that hangs.
   * @default 120000
   */
  abandonTimeoutMs?: number;
}

export interface RenderJobOptions {
  /** Aborting a queued job drops it; aborting a running one rejects at once and lets the thread finish and drop it. */
  signal?: AbortSignal;
  onProgress?(fraction: number): void;
  /** Splice the render into a source track (extend, redo a section). Its WAV's buffer is transferred to the thread. */
  splice?: SpliceSource;
}

export interface RenderPool {
  readonly size: number;
  /** Renders on the next free thread; jobs beyond `size` wait in FIFO order. */
  render(request: GenerationRequest, options?: RenderJobOptions): Promise<RenderedTrack>;
  /** Threads currently rendering. */
  busy(): number;
  /** True until close() is called. */
  healthy(): boolean;
  /** Rejects waiting and running jobs with RenderAbortedError, then stops each thread once its current render is over. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  request: GenerationRequest;
  options: RenderJobOptions;
  resolve(track: RenderedTrack): void;
  reject(error: Error): void;
  onAbort?: () => void;
  /** Rejected already (cancelled or pool closing): the thread finishes the render and the result is dropped. */
  abandoned: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Set while the pool itself is stopping this thread, so no new job is sent to it. */
  retiring: boolean;
}

const defaultEntry = new URL('./worker.ts', import.meta.url);
const bootstrap = new URL('./worker-bootstrap.js', import.meta.url);

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const size = options.workers ?? availableParallelism();
  if (!Number.isInteger(size) || size < 1 || size > 64) {
    throw new TypeError(`Expected \`workers\` to be an integer from 1 to 64, got \`${size}\``);
  }
  const entry = options.workerEntry ?? defaultEntry;
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  const abandonTimeoutMs = options.abandonTimeoutMs ?? 120_000;
  let nextJobId = 1;
  let closed = false;
  /** Resolves when every thread has stopped; set by close(). */
  let allStopped: (() => void) | null = null;
  let closing: Promise<void> | null = null;

  function spawn(): Slot {
    const slot: Slot = {
      worker: new Worker(bootstrap, { workerData: { entry: entry.href } }),
      job: null,
      retiring: false,
    };
    slot.worker.on('message', (message: WorkerMessage) => onMessage(slot, message));
    slot.worker.on('error', (error) => onExit(slot, null, error));
    slot.worker.on('exit', (code) => onExit(slot, code));
    return slot;
  }

  function onMessage(slot: Slot, message: WorkerMessage): void {
    const job = slot.job;
    if (message.type === 'ready' || !job || message.jobId !== job.id) return;
    if (message.type === 'progress') {
      if (!job.abandoned) job.options.onProgress?.(message.fraction);
      return;
    }
    finish(slot);
    if (!job.abandoned) {
      if (message.type === 'done') job.resolve(message.track);
      else job.reject(deserializeError(message.error));
    }
    if (closed) retire(slot);
    else dispatch();
  }

  function onExit(slot: Slot, code: number | null, error?: Error): void {
    const index = slots.indexOf(slot);
    if (index === -1) return; // 'error' is followed by 'exit': handle the first only
    slots.splice(index, 1);
    const job = slot.job;
    finish(slot);
    // The pool only stops idle threads or abandoned jobs' threads, so a live job here means a crash.
    if (job && !job.abandoned) job.reject(new WorkerCrashedError(code, { cause: error }));
    if (!closed) {
      slots.push(spawn());
      dispatch();
    } else if (slots.length === 0) {
      allStopped?.();
    }
  }

  function finish(slot: Slot): void {
    const job = slot.job;
    if (job?.onAbort) job.options.signal?.removeEventListener('abort', job.onAbort);
    slot.job = null;
  }

  /** Stops a thread that holds no render (stopping one mid-render would abort the process). */
  function retire(slot: Slot): void {
    slot.retiring = true;
    void slot.worker.terminate();
  }

  /** Rejects a running job now; its thread finishes the render, and is stopped by force only if it hangs. */
  function abandon(slot: Slot, job: Job, reason: unknown): void {
    job.abandoned = true;
    job.reject(new RenderAbortedError({ cause: reason }));
    const timer = setTimeout(() => {
      if (slot.job === job) retire(slot);
    }, abandonTimeoutMs);
    timer.unref();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (waiting.length === 0) return;
      if (slot.job || slot.retiring) continue;
      const job = waiting.shift();
      if (job === undefined) return;
      slot.job = job;
      const splice = job.options.splice;
      const command: RenderCommand = {
        type: 'render',
        jobId: job.id,
        request: job.request,
        ...(splice ? { splice } : {}),
      };
      const transfer = splice ? [splice.wav, ...(splice.stems ?? []).map((stem) => stem.wav)] : [];
      slot.worker.postMessage(command, [...new Set(transfer.map((bytes) => bytes.buffer as ArrayBuffer))]);
    }
  }

  function abort(job: Job): void {
    const queued = waiting.indexOf(job);
    if (queued !== -1) {
      waiting.splice(queued, 1);
      job.reject(new RenderAbortedError({ cause: job.options.signal?.reason }));
      return;
    }
    const slot = slots.find((candidate) => candidate.job === job);
    if (slot && !job.abandoned) abandon(slot, job, job.options.signal?.reason);
  }

  for (let i = 0; i < size; i++) slots.push(spawn());

  return {
    size,
    render(request, jobOptions = {}) {
      if (closed) return Promise.reject(new RenderAbortedError());
      if (jobOptions.signal?.aborted)
        return Promise.reject(new RenderAbortedError({ cause: jobOptions.signal.reason }));
      return new Promise<RenderedTrack>((resolve, reject) => {
        const job: Job = { id: nextJobId++, request, options: jobOptions, resolve, reject, abandoned: false };
        if (jobOptions.signal) {
          job.onAbort = () => abort(job);
          jobOptions.signal.addEventListener('abort', job.onAbort, { once: true });
        }
        waiting.push(job);
        dispatch();
      });
    },
    busy: () => slots.filter((slot) => slot.job !== null).length,
    healthy: () => !closed,
    close() {
      // Every caller waits for the same shutdown, however many times close() is called.
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        allStopped = resolve;
        for (const job of waiting.splice(0)) job.reject(new RenderAbortedError());
        for (const slot of [...slots]) {
          if (!slot.job) retire(slot);
          else if (!slot.job.abandoned) abandon(slot, slot.job, new RenderAbortedError());
        }
        if (slots.length === 0) resolve();
      });
      return closing;
    },
  };
}

/**
 * Rebuilds a typed engine error from what the worker sent. Only an error the worker marked as written for the
 * caller keeps its message; anything else becomes RenderFailedError, with what was thrown kept as its cause.
 */
function deserializeError(error: SerializedError): EngineError {
  if (!error.expose) {
    const cause = Object.assign(new Error(error.message), {
      name: error.name,
      stack: error.stack ?? `${error.name}: ${error.message}`,
    });
    return new RenderFailedError(error.name, { cause });
  }
  const details = error.details ?? {};
  const { style, allowed, lines, linesThatFit, duration, problem } = details;
  if (error.name === 'UnknownStyleError' && typeof style === 'string' && Array.isArray(allowed)) {
    return new UnknownStyleError(style, allowed as string[]);
  }
  if (
    error.name === 'LyricsTooLongError' &&
    typeof lines === 'number' &&
    typeof linesThatFit === 'number' &&
    typeof duration === 'number'
  ) {
    return new LyricsTooLongError(lines, linesThatFit, duration);
  }
  if (error.name === 'InvalidLyricsError' && typeof problem === 'string') return new InvalidLyricsError(problem);
  return new RequestError(error.message);
}

/**
 * The track's byte arrays, moved to the main thread rather than copied (each distinct buffer once). Only an
 * array that owns its whole buffer moves: a small Buffer (an LRC file made with Buffer.from) is a slice of
 * Node's shared pool, which Node 22 and later refuse to transfer (DataCloneError); those few bytes are copied.
 */
function transferables(track: RenderedTrack): TransferListItem[] {
  const arrays = [
    track.wav,
    track.midi,
    ...Object.values(track.outputs),
    ...(track.stems ?? []).map((stem) => stem.wav),
  ];
  const whole = arrays.filter((bytes) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength);
  return [...new Set(whole.map((bytes) => bytes.buffer as ArrayBuffer))];
}

/** The worker side of the channel: how engine/worker.ts (or a test's fake worker) talks to its pool. */
export interface WorkerChannel {
  post(message: WorkerMessage, transfer?: TransferListItem[]): void;
  onCommand(handler: (command: RenderCommand) => void): void;
}

export function workerChannel(): WorkerChannel {
  if (isMainThread || !parentPort) throw new EngineError('workerChannel() is only available inside a render worker');
  const port = parentPort;
  return {
    post: (message, transfer) => port.postMessage(message, transfer),
    onCommand: (handler) => port.on('message', (command: RenderCommand) => handler(command)),
  };
}

/**
 * Runs a render worker: each command is rendered with `render` and gets exactly one reply with its jobId,
 * whatever happens. engine/worker.ts passes renderTrack; tests pass a render of their own.
 */
export function serveRenders(
  render: (request: GenerationRequest, options: RenderTrackOptions) => Promise<RenderedTrack>,
): void {
  const channel = workerChannel();
  channel.onCommand(async (command) => {
    try {
      const track = await render(command.request, {
        ...(command.splice ? { splice: command.splice } : {}),
        onProgress: (fraction) => channel.post({ type: 'progress', jobId: command.jobId, fraction }),
      });
      channel.post({ type: 'done', jobId: command.jobId, track }, transferables(track));
    } catch (error) {
      channel.post({ type: 'failed', jobId: command.jobId, error: serializeError(error) });
    }
  });
  channel.post({ type: 'ready' });
}
