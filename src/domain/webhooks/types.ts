/** The webhook records the repository keeps (endpoints, secrets, and the events and deliveries of the outbox). */
export const EVENT_TYPES = ['generation.processing', 'generation.completed', 'generation.failed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an endpoint receives when it names no events, and what a per-request callback_url receives. */
export const DEFAULT_EVENTS: readonly EventType[] = ['generation.completed', 'generation.failed'];

export interface WebhookEndpoint {
  id: string;
  account_id: string;
  url: string;
  events: EventType[];
  description: string | null;
  created_at: string;
  /** Since when every attempt to it has failed (null while it answers). */
  failing_since: string | null;
  /** Set when it failed for too long; it receives nothing until enabled again. */
  disabled_at: string | null;
  disabled_reason: string | null;
}

export interface AccountSecret {
  account_id: string;
  secret: string;
  /** The secret before the last rotation, still used to sign until previous_expires_at. */
  previous: string | null;
  previous_expires_at: string | null;
  created_at: string;
}

export interface WebhookEvent {
  /** "evt_…": also the webhook-id header of every attempt, so receivers can deduplicate. */
  id: string;
  type: EventType;
  account_id: string;
  generation_id: string;
  created_at: string;
  /**
   * The task's started_at (processing) or completed_at (completed, failed) as this transition saves it:
   * it tells the transition apart in the task's record, which the body is presented from at send time.
   */
  transition_at: string | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  account_id: string;
  /** null for a per-request callback_url. */
  endpoint_id: string | null;
  url: string;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  /** Attempts since it was created or last resent: the position in the retry schedule. */
  round_attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookData {
  endpoints: WebhookEndpoint[];
  secrets: AccountSecret[];
  events: WebhookEvent[];
  deliveries: WebhookDelivery[];
}
