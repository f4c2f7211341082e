/**
 * An event names its task's transition by a stamp (the started_at or completed_at that transition saves)
 * instead of carrying a copy of the task: the outbox stays small, and the body is presented from the
 * task's record at send time, when the stamp shows the record is in the state the event announces.
 */
import type { Generation, GenerationStatus } from '../model.ts';
import type { EventType, WebhookEvent } from './types.ts';

export const EVENT_OF_STATUS: Partial<Record<GenerationStatus, EventType>> = {
  processing: 'generation.processing',
  completed: 'generation.completed',
  failed: 'generation.failed',
};

const STATUS_OF_EVENT: Record<EventType, GenerationStatus> = {
  'generation.processing': 'processing',
  'generation.completed': 'completed',
  'generation.failed': 'failed',
};

/** The field that dates an event's transition: a render start, or the end of the task. */
export function transitionStamp(type: EventType, generation: Generation): string | null {
  return type === 'generation.processing' ? generation.started_at : generation.completed_at;
}

/**
 * Whether the task is (still) as the event announces it. An event is committed with its transition, so this
 * only fails when the task went on otherwise: it was deleted, or the save of its completion failed and it
 * ended failed instead (the file store keeps an unsaved change in memory, with its event).
 */
export function stillTrue(event: WebhookEvent, current: Generation | undefined): current is Generation {
  if (!current) return false;
  // A render start stays true of the task once it has moved on (it keeps its started_at).
  const sameStatus = event.type === 'generation.processing' || current.status === STATUS_OF_EVENT[event.type];
  return sameStatus && transitionStamp(event.type, current) === event.transition_at;
}

/**
 * The task as a confirmed event announces it. A completed or failed task is its current record, as
 * GET /v1/generation/:id shows it. A render start may be sent after the task moved on, so it is the record
 * taken back to that moment: processing since the stamp, with nothing of the outcome.
 */
export function announcedState(event: WebhookEvent, current: Generation): Generation {
  if (event.type !== 'generation.processing') return current;
  return {
    ...current,
    status: 'processing',
    started_at: event.transition_at,
    completed_at: null,
    title: null,
    metadata: null,
    files: null,
    error: null,
  };
}
