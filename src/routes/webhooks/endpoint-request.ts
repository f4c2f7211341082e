/** The body of POST /v1/webhooks, checked field by field (the dashboard's form uses the same reader). */
import { ValidationError } from '../../http/errors.ts';
import { readHttpUrl, readText, rejectUnknownFields } from '../../http/validate.ts';
import type { NewEndpoint } from '../../webhooks/service.ts';
import { EVENT_TYPES, type EventType } from '../../webhooks/types.ts';

export const ENDPOINT_FIELDS = ['url', 'events', 'description'] as const;
export const ENDPOINT_LIMITS = { urlChars: 2048, descriptionChars: 200 } as const;

export function parseEndpointRequest(body: Record<string, unknown>): NewEndpoint {
  rejectUnknownFields(body, ENDPOINT_FIELDS);
  const url = readHttpUrl(body, 'url', ENDPOINT_LIMITS.urlChars);
  if (url === undefined)
    throw new ValidationError(
      'url',
      '"url" is required: the https URL that should receive the events.',
      'missing_field',
    );
  return {
    url,
    events: readEvents(body),
    description: readText(body, 'description', { maxChars: ENDPOINT_LIMITS.descriptionChars }) ?? null,
  };
}

function readEvents(body: Record<string, unknown>): EventType[] | undefined {
  const value = body.events;
  if (value === undefined || value === null) return undefined;
  const allowed = EVENT_TYPES.join(', ');
  if (!Array.isArray(value) || value.length === 0)
    throw new ValidationError(
      'events',
      `"events" must be a non-empty array of event types: ${allowed}.`,
      'invalid_type',
    );
  for (const item of value) {
    if (typeof item !== 'string' || !(EVENT_TYPES as readonly string[]).includes(item)) {
      throw new ValidationError(
        'events',
        `Unknown event type ${JSON.stringify(item)}. Use: ${allowed}.`,
        'invalid_value',
      );
    }
  }
  return value as EventType[];
}
