import { bodyHash, readIdempotencyKey } from '../../http/idempotency.ts';
import { readJsonObject } from '../../http/json-body.ts';
import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { deriveGenerationFor, type Operation } from '../../requests/derive-generation.ts';

/**
 * POST /v1/generation/:id/extend and …/remix: a new task made from a completed generation, answered like
 * POST /v1/generate (202, Location, the generation with its `source`).
 */
export function postDeriveHandler(services: Services, operation: Operation): RouteHandler {
  return async function postDerive(ctx) {
    const { account } = authed(ctx);
    const idempotencyKey = readIdempotencyKey(ctx);
    const body = await readJsonObject(ctx);
    const sourceId = ctx.params.id ?? '';
    const created = await deriveGenerationFor(services, account, sourceId, operation, {
      body,
      requestId: ctx.state.requestId,
      // The same key with the same body on another source (or the other operation) is a different request.
      idempotency:
        idempotencyKey === undefined
          ? undefined
          : { key: idempotencyKey, bodyHash: bodyHash({ body, source: sourceId, operation }) },
    });
    ctx.status = 202;
    if (created.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.set('Location', `/v1/generation/${created.generation.id}`);
    const [presented] = await services.generations.presentAll([created.generation]);
    ctx.body = presented;
  };
}
