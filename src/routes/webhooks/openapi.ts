/**
 * The /v1/webhooks part of the OpenAPI document (src/openapi.ts spreads it in), with the webhook
 * payload itself described under `webhooks` as OpenAPI 3.1 allows.
 */
import { MAX_ENDPOINTS } from '../../domain/webhooks/service.ts';
import { EVENT_TYPES } from '../../domain/webhooks/types.ts';
import { queryParameters } from '../../http/query.ts';
import { DELIVERY_STATES } from '../../requests/list-limits.ts';
import { DeliveriesQuery } from './index.ts';

/** The document's own helpers, handed in so both parts build responses the same way. */
export interface DocHelpers {
  ref: (name: string) => object;
  response: (name: string) => object;
  ok: (description: string, schema: object) => object;
  json: (schema: object) => object;
  commonErrors: Record<string, object>;
}

export function webhookPaths({ ref, response, ok, json, commonErrors }: DocHelpers) {
  const forbidden = { '403': response('Forbidden') };
  const idParam = {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
  };
  return {
    '/v1/webhooks': {
      get: {
        operationId: 'listWebhookEndpoints',
        tags: ['webhooks'],
        summary: "The account's webhook endpoints",
        responses: {
          '200': ok('Every endpoint, with its status.', ref('WebhookEndpointList')),
          ...forbidden,
          ...commonErrors,
        },
      },
      post: {
        operationId: 'createWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Register an endpoint for the account',
        description:
          `It receives every matching event of the account's tasks. At most ${MAX_ENDPOINTS} per account. The URL must be public http(s) without credentials: ` +
          'one that is, or resolves to, a loopback, private, link-local, carrier-grade NAT, multicast, reserved or cloud-metadata address is a 400 unsafe_url giving the reason ' +
          '(unless the server runs with TUNESMITH_WEBHOOK_ALLOW_PRIVATE=1). A name that does not resolve yet is accepted; every send checks again.',
        requestBody: { required: true, content: json(ref('WebhookEndpointRequest')) },
        responses: {
          '201': ok('The new endpoint.', ref('WebhookEndpoint')),
          '400': response('BadRequest'),
          ...forbidden,
          ...commonErrors,
        },
      },
    },
    '/v1/webhooks/{id}': {
      delete: {
        operationId: 'deleteWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Remove an endpoint (its pending deliveries are cancelled)',
        parameters: [idParam],
        responses: { '204': { description: 'Removed.' }, ...forbidden, '404': response('NotFound'), ...commonErrors },
      },
    },
    '/v1/webhooks/{id}/enable': {
      post: {
        operationId: 'enableWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Turn a disabled endpoint back on',
        parameters: [idParam],
        responses: {
          '200': ok('The endpoint, enabled.', ref('WebhookEndpoint')),
          ...forbidden,
          '404': response('NotFound'),
          ...commonErrors,
        },
      },
    },
    '/v1/webhooks/secret': {
      get: {
        operationId: 'getWebhookSecret',
        tags: ['webhooks'],
        summary: "The secret that signs the account's webhooks (made on first use)",
        responses: { '200': ok('The signing secret.', ref('WebhookSecret')), ...forbidden, ...commonErrors },
      },
    },
    '/v1/webhooks/secret/rotate': {
      post: {
        operationId: 'rotateWebhookSecret',
        tags: ['webhooks'],
        summary: 'Replace the signing secret; the old one keeps signing beside it for 24 h',
        responses: { '200': ok('The new signing secret.', ref('WebhookSecret')), ...forbidden, ...commonErrors },
      },
    },
    '/v1/webhooks/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: 'The delivery log, newest first',
        description:
          'One delivery per event and receiver, with every attempt (time, status code, latency, error). Settled deliveries are kept 14 days.',
        parameters: queryParameters(DeliveriesQuery),
        responses: {
          '200': ok('One page of deliveries.', ref('WebhookDeliveryList')),
          '400': response('BadRequest'),
          ...forbidden,
          ...commonErrors,
        },
      },
    },
    '/v1/webhooks/deliveries/{id}': {
      get: {
        operationId: 'getWebhookDelivery',
        tags: ['webhooks'],
        summary: 'One delivery and its attempts',
        parameters: [idParam],
        responses: {
          '200': ok('The delivery.', ref('WebhookDelivery')),
          ...forbidden,
          '404': response('NotFound'),
          ...commonErrors,
        },
      },
    },
    '/v1/webhooks/deliveries/{id}/resend': {
      post: {
        operationId: 'resendWebhookDelivery',
        tags: ['webhooks'],
        summary: 'Send a delivery again now (same webhook-id, fresh retry schedule)',
        parameters: [idParam],
        responses: {
          '202': ok('The delivery, pending.', ref('WebhookDelivery')),
          ...forbidden,
          '404': response('NotFound'),
          ...commonErrors,
        },
      },
    },
  };
}

export function webhookSchemas({ ref }: Pick<DocHelpers, 'ref'>) {
  const nullableTime = { type: ['string', 'null'], format: 'date-time' };
  return {
    WebhookEventType: { type: 'string', enum: [...EVENT_TYPES] },
    WebhookEndpoint: {
      type: 'object',
      required: ['id', 'object', 'url', 'events', 'status', 'created_at'],
      properties: {
        id: { type: 'string' },
        object: { const: 'webhook_endpoint' },
        url: { type: 'string', format: 'uri' },
        events: { type: 'array', items: ref('WebhookEventType') },
        description: { type: ['string', 'null'] },
        status: {
          type: 'string',
          enum: ['enabled', 'disabled'],
          description: 'disabled after 5 days of failing deliveries; POST …/enable turns it on again.',
        },
        created_at: { type: 'string', format: 'date-time' },
        failing_since: { ...nullableTime, description: 'Since when every attempt has failed.' },
        disabled_at: nullableTime,
        disabled_reason: { type: ['string', 'null'] },
      },
    },
    WebhookEndpointList: {
      type: 'object',
      required: ['object', 'data'],
      properties: { object: { const: 'list' }, data: { type: 'array', items: ref('WebhookEndpoint') } },
    },
    WebhookSecret: {
      type: 'object',
      required: ['object', 'secret', 'created_at', 'previous_expires_at'],
      properties: {
        object: { const: 'webhook_secret' },
        secret: {
          type: 'string',
          pattern: '^whsec_',
          description: '"whsec_" + base64 of 32 bytes; the HMAC key is the decoded base64.',
        },
        created_at: { type: 'string', format: 'date-time' },
        previous_expires_at: {
          ...nullableTime,
          description: 'Until when the secret before the last rotation also signs (both signatures are sent).',
        },
      },
    },
    WebhookAttempt: {
      type: 'object',
      required: ['at', 'status_code', 'latency_ms', 'error'],
      properties: {
        at: { type: 'string', format: 'date-time' },
        status_code: {
          type: ['integer', 'null'],
          description: 'null when no answer came (timeout, connection refused, refused address).',
        },
        latency_ms: { type: 'integer' },
        error: { type: ['string', 'null'], description: 'null for a 2xx.' },
      },
    },
    WebhookDelivery: {
      type: 'object',
      required: [
        'id',
        'object',
        'event_id',
        'event_type',
        'generation_id',
        'endpoint_id',
        'url',
        'status',
        'attempts',
        'next_attempt_at',
        'created_at',
      ],
      properties: {
        id: { type: 'string' },
        object: { const: 'webhook_delivery' },
        event_id: { type: 'string', description: 'The webhook-id header of every attempt.' },
        event_type: ref('WebhookEventType'),
        generation_id: { type: 'string' },
        endpoint_id: { type: ['string', 'null'], description: 'null for a per-request callback_url.' },
        url: { type: 'string' },
        status: { type: 'string', enum: [...DELIVERY_STATES] },
        attempts: { type: 'array', items: ref('WebhookAttempt') },
        next_attempt_at: nullableTime,
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
      },
    },
    WebhookDeliveryList: {
      type: 'object',
      required: ['object', 'data', 'total', 'limit', 'offset', 'has_more'],
      properties: {
        object: { const: 'list' },
        data: { type: 'array', items: ref('WebhookDelivery') },
        total: { type: 'integer' },
        limit: { type: 'integer' },
        offset: { type: 'integer' },
        has_more: { type: 'boolean' },
      },
    },
    WebhookPayload: {
      type: 'object',
      required: ['id', 'type', 'created_at', 'data'],
      description:
        'The body of every webhook POST, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).',
      properties: {
        id: { type: 'string', description: '"evt_…", equal to the webhook-id header; the same on every retry.' },
        type: ref('WebhookEventType'),
        created_at: { type: 'string', format: 'date-time' },
        data: ref('Generation'),
      },
    },
  };
}

/** The payload as an OpenAPI 3.1 `webhooks` entry, one per event type. */
export function webhookEvents({ ref }: Pick<DocHelpers, 'ref'>) {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `Sent when a task becomes ${type.split('.')[1]}`,
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: { content: { 'application/json': { schema: ref('WebhookPayload') } } },
          responses: { '200': { description: 'Any 2xx counts as delivered; anything else is retried.' } },
        },
      },
    ]),
  );
}
