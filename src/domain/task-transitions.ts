/**
 * The task state machine in one table: which changes of a generation's status are allowed and what each one
 * causes. Every change goes through the lifecycle (GenerationLifecycle), which refuses one the table does not
 * list and records the webhook event the table names, in the change's own transaction.
 *
 * A new task is saved `processing` (waiting for a render thread). `pending` is a task handed back to its queue:
 * its render crashed and will be retried, a shutdown interrupted it, or a restart found it mid-render.
 */
import type { Generation, GenerationStatus } from './model.ts';
import type { EventType } from './webhooks/types.ts';

export type TaskChange = 'start' | 'complete' | 'fail' | 'requeue' | 'unsave';

export interface TaskTransition {
  from: GenerationStatus;
  to: GenerationStatus;
  change: TaskChange;
  /** The webhook event it records (sent where the account's plan has webhooks and someone listens for it). */
  event: EventType | null;
  /** Whether the task stops counting against the month's quota: a failed task's unit is given back. */
  refundsQuota: boolean;
}

/** Every allowed change of status; a patch that keeps the status (or sets none) is not a transition. */
export const TASK_TRANSITIONS: readonly TaskTransition[] = [
  // A render starts: the first one, or a retry after a crash, a shutdown or a restart.
  { from: 'processing', to: 'processing', change: 'start', event: 'generation.processing', refundsQuota: false },
  { from: 'pending', to: 'processing', change: 'start', event: 'generation.processing', refundsQuota: false },
  // Its files are stored: the record says where.
  { from: 'processing', to: 'completed', change: 'complete', event: 'generation.completed', refundsQuota: false },
  // A render failed, the task was cancelled (error code "cancelled"), or it was interrupted too often.
  { from: 'processing', to: 'failed', change: 'fail', event: 'generation.failed', refundsQuota: true },
  { from: 'pending', to: 'failed', change: 'fail', event: 'generation.failed', refundsQuota: true },
  // Handed back to the queue: a crashed render thread, a shutdown, a restart.
  { from: 'processing', to: 'pending', change: 'requeue', event: null, refundsQuota: false },
  // The completion could not be written (a full disk): the file store keeps the unsaved change in memory, and the
  // task ends failed instead, its files removed.
  { from: 'completed', to: 'failed', change: 'unsave', event: 'generation.failed', refundsQuota: true },
];

/** The transition from `from` to `to`; undefined when the table does not allow it. */
export function transitionOf(from: GenerationStatus, to: GenerationStatus): TaskTransition | undefined {
  return TASK_TRANSITIONS.find((transition) => transition.from === from && transition.to === to);
}

/** A change of status the table does not allow: a bug in whoever asked for it. */
export class TransitionNotAllowedError extends Error {
  override name = 'TransitionNotAllowedError';
  constructor(generation: Pick<Generation, 'id' | 'status'>, to: GenerationStatus) {
    super(`generation ${generation.id} cannot go from ${generation.status} to ${to}`);
  }
}
