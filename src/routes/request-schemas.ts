/**
 * The request schemas of the routes, by the names the OpenAPI document gives them under components/schemas: the
 * document is generated from these (src/openapi.ts), and test/api-openapi.test.ts checks each route against it.
 */
import type { z } from 'zod';
import { ExtendRequest, RemixRequest } from '../requests/derive-generation.ts';
import { generateRequestSchema } from '../requests/generate-request.ts';
import { planSection } from '../requests/plan-schema.ts';
import { EndpointRequest } from '../requests/endpoint-request.ts';
import { StyleRequest } from '../requests/style-request.ts';
import { ListGenerationsQuery } from './generations/list-generations.ts';
import { WaitQuery } from '../requests/wait-for-change.ts';
import { DeliveriesQuery } from './webhooks/index.ts';

/** `styles`: the names the engine publishes, which `style` takes. */
export function requestSchemas(styles: readonly string[]): Record<string, z.ZodType> {
  return {
    GenerateRequest: generateRequestSchema(styles),
    ExtendRequest,
    RemixRequest,
    WebhookEndpointRequest: EndpointRequest,
    PlanSectionRequest: planSection,
    StyleRequest,
  };
}

/** Each route with a query string, and its schema. */
export const QUERIES: {
  method: 'get';
  path: string;
  schema: z.ZodObject<Record<string, z.ZodType<unknown, string | undefined>>>;
}[] = [
  { method: 'get', path: '/v1/generations', schema: ListGenerationsQuery },
  { method: 'get', path: '/v1/generation/{id}', schema: WaitQuery },
  { method: 'get', path: '/v1/generations/{id}', schema: WaitQuery },
  { method: 'get', path: '/v1/webhooks/deliveries', schema: DeliveriesQuery },
];

/** Each route with a JSON body, and the name of its schema. */
export const REQUEST_BODIES: { method: 'post'; path: string; schema: string }[] = [
  { method: 'post', path: '/v1/generate', schema: 'GenerateRequest' },
  ...['/v1/generation/{id}', '/v1/generations/{id}'].flatMap((path) => [
    { method: 'post' as const, path: `${path}/extend`, schema: 'ExtendRequest' },
    { method: 'post' as const, path: `${path}/remix`, schema: 'RemixRequest' },
  ]),
  { method: 'post', path: '/v1/webhooks', schema: 'WebhookEndpointRequest' },
  { method: 'post', path: '/v1/styles', schema: 'StyleRequest' },
];
