/**
 * Runs one task, whichever queue scheduled it (the in-process RenderQueue, or a PostgreSQL worker): start → render →
 * store the files → complete, or fail, cancel, or hand it back. The queue only says when, on which signal, and
 * what it does with the outcome (run it again, report it to pg-boss, learn the render speed).
 *
 * A task can be run twice at once on PostgreSQL: pg-boss hands its job to another worker when this one's
 * heartbeats stop, and the first may yet finish. Every write is therefore a transition guarded by the attempt it
 * belongs to (the `attempts` this run's start set, status processing): a run that is no longer the newest writes
 * nothing, so a task completes once and causes one event. In process the guards always hold.
 */
import { WorkerCrashedError, type RenderedTrack, type RenderPool } from '../../engine/index.ts';
import { allKeys, trackFiles } from '../domain/generations/files.ts';
import type { GenerationLifecycle } from '../domain/generations/lifecycle.ts';
import { isTerminal } from '../domain/generations/present.ts';
import type { Logger } from '../log.ts';
import type { BlobStore } from '../store/blob-store.ts';
import type { Repository } from '../store/repository.ts';
import type { Generation } from '../domain/model.ts';
import {
  CANCELLED,
  completedPatch,
  completionFailure,
  crashedTooOften,
  failedPatch,
  INTERRUPTED_TOO_OFTEN,
  logFailure,
  renderFailure,
  requestOf,
  startPatch,
  taskIds,
  type TaskFailure,
} from './render-task.ts';
import { spliceSourceOf } from './splice-source.ts';

export type RenderPoolLike = Pick<RenderPool, 'size' | 'render' | 'healthy'>;

export interface TaskRunner {
  repository: Repository;
  blobs: BlobStore;
  lifecycle: GenerationLifecycle;
  pool: RenderPoolLike;
  /** Starts a task gets before it is failed. */
  maxAttempts: number;
  logger: Logger;
  clock: () => number;
}

/** How the queue runs this one task. */
export interface TaskRun {
  /** Stops the render. */
  signal: AbortSignal;
  /** Why `signal` fired: the task's owner cancelled it, or the queue takes the task back (a shutdown, a lost lease). */
  stopReason?: () => 'cancelled' | 'handed-back';
  /** A task handed back has its start given back (not its fault), and is saved pending for the next start. */
  giveBackStart: boolean;
  /** Where the started render reports how far it has got. */
  progress?: (started: Generation) => ((fraction: number) => void) | undefined;
}

export type TaskOutcome =
  /** Nothing to do: the task is gone, finished, or changed before its start (another run has it). */
  | { kind: 'skipped'; changed: boolean }
  | { kind: 'completed'; generation: Generation; track: RenderedTrack; renderSeconds: number }
  /** Ended failed (or cancelled), or another run had taken it over by then. */
  | { kind: 'failed' }
  /** Its render thread crashed with starts left: saved pending, the queue runs it again. */
  | { kind: 'retry'; generation: Generation | undefined }
  /** The queue stopped it (`stopReason` 'handed-back'). */
  | { kind: 'handed-back'; error: unknown };

export async function runTask(
  runner: TaskRunner,
  task: Pick<Generation, 'id' | 'account_id'>,
  run: TaskRun,
): Promise<TaskOutcome> {
  const { lifecycle, logger } = runner;
  const found = await runner.repository.getGeneration(task.account_id, task.id);
  // Deleted, cancelled, or finished by an earlier run whose job was not marked done.
  if (!found || isTerminal(found.status)) return { kind: 'skipped', changed: false };
  // Started as often as it may (each start ended by a crash of the whole process): the render is the likely cause.
  if (found.attempts >= runner.maxAttempts) {
    await fail(runner, found, (g) => g.attempts === found.attempts && !isTerminal(g.status), INTERRUPTED_TOO_OFTEN);
    return { kind: 'failed' };
  }
  const pickedUp = runner.clock();
  const started = await lifecycle.transitionIf(
    found.id,
    (g) => !isTerminal(g.status) && g.attempts === found.attempts,
    startPatch(found, new Date(pickedUp)),
  );
  if (!started) return { kind: 'skipped', changed: true };
  const mine = (g: Generation) => g.status === 'processing' && g.attempts === started.attempts;
  logger.info(
    {
      ...taskIds(started),
      attempt: started.attempts,
      pickup_ms: Math.max(0, pickedUp - Date.parse(started.created_at)),
    },
    'task started',
  );

  let track: RenderedTrack;
  try {
    const splice = await spliceSourceOf(started, runner.repository, runner.blobs);
    const onProgress = run.progress?.(started);
    track = await runner.pool.render(requestOf(started), {
      signal: run.signal,
      ...(splice ? { splice } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
  } catch (error) {
    return renderFailed(runner, run, started, mine, error);
  }
  const renderSeconds = (runner.clock() - pickedUp) / 1000;
  if (!(await complete(runner, started, mine, track))) return { kind: 'failed' };
  logger.info(
    { ...taskIds(started), render_ms: Math.round(renderSeconds * 1000), audio_seconds: track.audioSeconds },
    'task completed',
  );
  return { kind: 'completed', generation: started, track, renderSeconds };
}

async function renderFailed(
  runner: TaskRunner,
  run: TaskRun,
  generation: Generation,
  mine: (g: Generation) => boolean,
  error: unknown,
): Promise<TaskOutcome> {
  const stopped = run.signal.aborted ? (run.stopReason?.() ?? 'handed-back') : undefined;
  if (stopped === 'handed-back') {
    if (run.giveBackStart) {
      await runner.lifecycle.transitionIf(generation.id, mine, {
        status: 'pending',
        attempts: Math.max(0, generation.attempts - 1),
      });
      runner.logger.info(taskIds(generation), 'task sent back to pending by the shutdown');
    }
    return { kind: 'handed-back', error };
  }
  if (stopped === 'cancelled') {
    await fail(runner, generation, mine, { code: 'cancelled', message: CANCELLED });
    return { kind: 'failed' };
  }
  if (error instanceof WorkerCrashedError && generation.attempts < runner.maxAttempts) {
    runner.logger.warn(
      { ...taskIds(generation), attempt: generation.attempts, err: error },
      'render worker crashed; the task will be retried',
    );
    return {
      kind: 'retry',
      generation: await runner.lifecycle.transitionIf(generation.id, mine, { status: 'pending' }),
    };
  }
  const failure = error instanceof WorkerCrashedError ? crashedTooOften(generation) : renderFailure(generation, error);
  await fail(runner, generation, mine, failure);
  return { kind: 'failed' };
}

/**
 * Stores the track's files and saves the task completed; true when it was. A failure after the render (writing
 * its audio, saving the record) still ends the task, failed, with its quota unit back and no half-written audio
 * left behind; a run no longer the newest leaves the files alone (their keys are the winner's) and writes nothing.
 */
async function complete(
  runner: TaskRunner,
  generation: Generation,
  mine: (g: Generation) => boolean,
  track: RenderedTrack,
): Promise<boolean> {
  const { files, puts } = trackFiles(generation, track);
  try {
    await Promise.all(puts.map(({ key, bytes, contentType }) => runner.blobs.put(key, bytes, { contentType })));
    const saved = await runner.lifecycle.transitionIf(
      generation.id,
      mine,
      completedPatch(track, files, new Date(runner.clock())),
    );
    if (saved) return true;
    runner.logger.warn(
      { ...taskIds(generation), attempt: generation.attempts },
      'render finished after a newer attempt took the task over (or it was cancelled); its result is dropped',
    );
    return false;
  } catch (error) {
    // Still this run's: processing, or completed in the memory of a file store that could not write it.
    const ours = (g: Generation) =>
      g.attempts === generation.attempts && (g.status === 'processing' || g.status === 'completed');
    const current = await runner.repository.getGeneration(generation.account_id, generation.id);
    if (!current || !ours(current)) return false;
    // The files go first: on a full disk, they are the room the failed record needs.
    await Promise.all(
      [...new Set([...puts.map(({ key }) => key), ...allKeys(generation)])].map((key) =>
        runner.blobs.delete(key).catch(() => undefined),
      ),
    );
    await fail(runner, generation, ours, completionFailure(generation, error), {
      files: null,
      title: null,
      metadata: null,
    });
    return false;
  }
}

/** Ends the task failed when it still passes `expected`, and logs why (in full, with the stack, when something was thrown). */
async function fail(
  runner: TaskRunner,
  generation: Generation,
  expected: (g: Generation) => boolean,
  failure: TaskFailure,
  patch: Parameters<typeof failedPatch>[2] = {},
): Promise<void> {
  const failed = await runner.lifecycle.transitionIf(
    generation.id,
    expected,
    failedPatch(failure, new Date(runner.clock()), patch),
  );
  if (failed) logFailure(runner.logger, generation, failure);
}
