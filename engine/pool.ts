/**
 * The render pool: long-lived worker threads, one render at a time each. This is the only module that
 * imports node:worker_threads; the worker side reaches its parent through workerChannel().
 */
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, type TransferListItem } from 'node:worker_threads';
import {
  EngineError,
  RenderAbortedError,
  RenderFailedError,
  UnknownStyleError,
  WorkerCrashedError,
} from './errors.ts';
import type { RenderCommand, SerializedError, WorkerMessage } from './protocol.ts';
import type { RenderedTrack } from './track.ts';
import type { GenerationRequest } from './types.ts';

export interface RenderPoolOptions {
  /** Render threads. @default os.availableParallelism() */
  workers?: number;
  /** The worker's TypeScript entry module. A test seam: tests pass a fake worker. @default engine/worker.ts */
  workerEntry?: URL;
}

export interface RenderJobOptions {
  /** Aborting a queued job drops it; aborting a running one stops its thread (a fresh one replaces it). */
  signal?: AbortSignal;
  onProgress?(fraction: number): void;
}

export interface RenderPool {
  readonly size: number;
  /** Renders on the next free thread; jobs beyond `size` wait in FIFO order. */
  render(request: GenerationRequest, options?: RenderJobOptions): Promise<RenderedTrack>;
  /** Threads currently rendering. */
  busy(): number;
  /** True until close() is called. */
  healthy(): boolean;
  /** Rejects waiting and running jobs with RenderAbortedError and stops every thread. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  request: GenerationRequest;
  options: RenderJobOptions;
  resolve(track: RenderedTrack): void;
  reject(error: Error): void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Set while the pool itself is terminating this thread, so its exit is not reported as a crash. */
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
  let nextJobId = 1;
  let closed = false;

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
      job.options.onProgress?.(message.fraction);
      return;
    }
    finish(slot);
    if (message.type === 'done') job.resolve(message.track);
    else job.reject(deserializeError(message.error));
    dispatch();
  }

  function onExit(slot: Slot, code: number | null, error?: Error): void {
    const index = slots.indexOf(slot);
    if (index === -1) return; // 'error' is followed by 'exit': handle the first only
    slots.splice(index, 1);
    const job = slot.job;
    finish(slot);
    if (job) {
      job.reject(slot.retiring ? new RenderAbortedError() : new WorkerCrashedError(code, { cause: error }));
    }
    if (!closed) {
      slots.push(spawn());
      dispatch();
    }
  }

  function finish(slot: Slot): void {
    const job = slot.job;
    if (job?.onAbort) job.options.signal?.removeEventListener('abort', job.onAbort);
    slot.job = null;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (waiting.length === 0) return;
      if (slot.job || slot.retiring) continue;
      const job = waiting.shift()!;
      slot.job = job;
      const command: RenderCommand = { type: 'render', jobId: job.id, request: job.request };
      slot.worker.postMessage(command);
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
    if (slot) {
      // A native offline render cannot be interrupted from JS: stop the thread; onExit replaces it.
      slot.retiring = true;
      void slot.worker.terminate();
    }
  }

  for (let i = 0; i < size; i++) slots.push(spawn());

  return {
    size,
    render(request, jobOptions = {}) {
      if (closed) return Promise.reject(new RenderAbortedError());
      if (jobOptions.signal?.aborted) return Promise.reject(new RenderAbortedError({ cause: jobOptions.signal.reason }));
      return new Promise<RenderedTrack>((resolve, reject) => {
        const job: Job = { id: nextJobId++, request, options: jobOptions, resolve, reject };
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
    async close() {
      if (closed) return;
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new RenderAbortedError());
      await Promise.all(
        [...slots].map((slot) => {
          slot.retiring = true;
          return slot.worker.terminate();
        }),
      );
    },
  };
}

/** Rebuilds a typed engine error from what the worker sent, so callers can tell retryable failures apart. */
function deserializeError(error: SerializedError): EngineError {
  const details = error.details ?? {};
  if (error.name === 'UnknownStyleError' && typeof details['style'] === 'string' && Array.isArray(details['allowed'])) {
    return new UnknownStyleError(details['style'], details['allowed'] as string[]);
  }
  return new RenderFailedError(error.message, error.name);
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
