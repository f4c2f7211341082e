/** Webhook records as the API shows them. */
import type { DeliveryView, SecretView } from './service.ts';
import type { WebhookEndpoint } from './types.ts';

export function presentEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    status: endpoint.disabled_at === null ? ('enabled' as const) : ('disabled' as const),
    created_at: endpoint.created_at,
    failing_since: endpoint.failing_since,
    disabled_at: endpoint.disabled_at,
    disabled_reason: endpoint.disabled_reason,
  };
}

export function presentDelivery(delivery: DeliveryView) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    generation_id: delivery.generation_id,
    endpoint_id: delivery.endpoint_id,
    url: delivery.url,
    status: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: delivery.next_attempt_at,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}

export function presentSecret(secret: SecretView) {
  return { object: 'webhook_secret' as const, ...secret };
}
