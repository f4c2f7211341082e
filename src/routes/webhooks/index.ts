/**
 * /v1/webhooks: account endpoints, the signing secret and the delivery log. Developer and Enterprise
 * only (403 on Starter). The work is done by WebhookService; these handlers only read and present.
 */
import type { Router } from '@koa/router';
import { readJsonObject } from '../../http/json-body.ts';
import { z } from 'zod';
import { parseQuery, queryEnum, queryInteger } from '../../http/query.ts';
import { authed, type AppContext, type AppState, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { WebhookNotFoundError } from '../../domain/webhooks/errors.ts';
import type { WebhookService } from '../../domain/webhooks/service.ts';
import { parseEndpointRequest } from '../../requests/endpoint-request.ts';
import { presentDelivery, presentEndpoint, presentSecret } from '../../domain/webhooks/present.ts';
import { DELIVERY_LIST_LIMITS, DELIVERY_STATES } from '../../requests/list-limits.ts';
import { webhooksOf } from '../../requests/webhooks-of.ts';

export const DeliveriesQuery = z.object({
  limit: queryInteger({
    min: 1,
    max: DELIVERY_LIST_LIMITS.maxLimit,
    fallback: DELIVERY_LIST_LIMITS.defaultLimit,
  }),
  offset: queryInteger({ min: 0, max: DELIVERY_LIST_LIMITS.maxOffset, fallback: 0 }),
  status: queryEnum(DELIVERY_STATES),
  endpoint_id: z.string().optional(),
});

const PLAUSIBLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function mountWebhookRoutes(router: Router<AppState>, services: Services): void {
  // The fixed paths come before /v1/webhooks/:id so "secret" and "deliveries" are never taken for ids.
  router.get(
    '/v1/webhooks/secret',
    handler(services, async (webhooks, ctx) => presentSecret(await webhooks.getSecret(authed(ctx).account))),
  );
  router.post(
    '/v1/webhooks/secret/rotate',
    handler(services, async (webhooks, ctx) => presentSecret(await webhooks.rotateSecret(authed(ctx).account))),
  );
  router.get('/v1/webhooks/deliveries', handler(services, listDeliveries));
  router.get(
    '/v1/webhooks/deliveries/:id',
    handler(services, async (webhooks, ctx) =>
      presentDelivery(await webhooks.getDelivery(authed(ctx).account, idParam(ctx, 'webhook_delivery'))),
    ),
  );
  router.post(
    '/v1/webhooks/deliveries/:id/resend',
    handler(services, async (webhooks, ctx) => {
      ctx.status = 202;
      return presentDelivery(await webhooks.resend(authed(ctx).account, idParam(ctx, 'webhook_delivery')));
    }),
  );
  router.get(
    '/v1/webhooks',
    handler(services, async (webhooks, ctx) => ({
      object: 'list',
      data: (await webhooks.listEndpoints(authed(ctx).account)).map(presentEndpoint),
    })),
  );
  router.post(
    '/v1/webhooks',
    handler(services, async (webhooks, ctx) => {
      const { account } = authed(ctx);
      const endpoint = await webhooks.createEndpoint(account, parseEndpointRequest(await readJsonObject(ctx)));
      ctx.status = 201;
      ctx.set('Location', `/v1/webhooks/${endpoint.id}`);
      return presentEndpoint(endpoint);
    }),
  );
  router.delete(
    '/v1/webhooks/:id',
    handler(services, async (webhooks, ctx) => {
      await webhooks.deleteEndpoint(authed(ctx).account, idParam(ctx, 'webhook_endpoint'));
      ctx.status = 204;
      return null;
    }),
  );
  router.post(
    '/v1/webhooks/:id/enable',
    handler(services, async (webhooks, ctx) =>
      presentEndpoint(await webhooks.enableEndpoint(authed(ctx).account, idParam(ctx, 'webhook_endpoint'))),
    ),
  );
}

/** A handler over the service: 503 when the app was built without webhooks, 403 on Starter, the returned value as the body. */
function handler(
  services: Services,
  run: (webhooks: WebhookService, ctx: AppContext & { params: Record<string, string> }) => Promise<unknown>,
): RouteHandler {
  return async function webhookRoute(ctx) {
    const webhooks = webhooksOf(services);
    // Before anything is read: a Starter account learns about its plan, not about its request's details.
    webhooks.assertAllowed(authed(ctx).account);
    const body = await run(webhooks, ctx);
    if (body !== null) ctx.body = body;
  };
}

async function listDeliveries(webhooks: WebhookService, ctx: AppContext) {
  const { account } = authed(ctx);
  const query = parseQuery(ctx.querystring, DeliveriesQuery);
  const { limit, offset } = query;
  const { items, total } = await webhooks.listDeliveries(account, {
    limit,
    offset,
    state: query.status,
    endpointId: query.endpoint_id,
  });
  return {
    object: 'list',
    data: items.map(presentDelivery),
    total,
    limit,
    offset,
    has_more: offset + items.length < total,
  };
}

/** An id from the path; one that cannot exist is a 404 without a lookup. */
function idParam(ctx: { params: Record<string, string> }, what: 'webhook_endpoint' | 'webhook_delivery'): string {
  const id = ctx.params.id ?? '';
  if (!PLAUSIBLE_ID.test(id)) throw new WebhookNotFoundError(what, id.slice(0, 64));
  return id;
}
