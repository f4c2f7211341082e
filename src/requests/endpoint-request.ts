/** The body of POST /v1/webhooks (the dashboard's form uses the same schema). */
import { z } from 'zod';
import { httpUrl, text } from '../http/fields.ts';
import { parseWith, refuse, strictBody } from '../http/schema.ts';
import type { NewEndpoint } from '../domain/webhooks/service.ts';
import { EVENT_TYPES, type EventType } from '../domain/webhooks/types.ts';

export const ENDPOINT_LIMITS = { urlChars: 2048, descriptionChars: 200 } as const;

const allowed = EVENT_TYPES.join(', ');

/** Checked as one field, so a wrong item is reported as "events" with the list to choose from. */
const events = z
  .array(z.unknown(), {
    error: (issue) =>
      issue.code === 'invalid_type' ? `"events" must be a non-empty array of event types: ${allowed}.` : undefined,
  })
  .superRefine((items, ctx) => {
    if (items.length === 0)
      return refuse(ctx, 'invalid_type', () => `"events" must be a non-empty array of event types: ${allowed}.`);
    const wrong = items.find((item) => typeof item !== 'string' || !(EVENT_TYPES as readonly string[]).includes(item));
    if (wrong !== undefined || items.some((item) => item === undefined))
      refuse(ctx, 'invalid_value', () => `Unknown event type ${JSON.stringify(wrong)}. Use: ${allowed}.`);
  })
  .transform((items) => items as EventType[])
  .meta({ minItems: 1, items: { $ref: '#/components/schemas/WebhookEventType' } });

export const EndpointRequest = strictBody({
  url: httpUrl(ENDPOINT_LIMITS.urlChars, '"url" is required: the https URL that should receive the events.'),
  events: events.nullish().meta({ description: 'Default: generation.completed and generation.failed.' }),
  description: text({ maxChars: ENDPOINT_LIMITS.descriptionChars }).nullish(),
});

export function parseEndpointRequest(body: Record<string, unknown>): NewEndpoint {
  const { url, events, description } = parseWith(EndpointRequest, body);
  return { url, events: events ?? undefined, description: description ?? null };
}
