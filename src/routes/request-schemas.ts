/**
 * The request schemas of the routes, by the names the OpenAPI document gives them under components/schemas: the
 * document is generated from these (src/openapi.ts), and test/api-openapi.test.ts checks each route against it.
 */
import type { z } from 'zod';
import { EndpointRequest } from './webhooks/endpoint-request.ts';

export const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  WebhookEndpointRequest: EndpointRequest,
};

/** Each route with a JSON body, and the name of its schema. */
export const REQUEST_BODIES: { method: 'post'; path: string; schema: keyof typeof REQUEST_SCHEMAS }[] = [
  { method: 'post', path: '/v1/webhooks', schema: 'WebhookEndpointRequest' },
];
