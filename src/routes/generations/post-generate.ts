import { bodyHash, readIdempotencyKey } from '../../http/idempotency.ts';
import { readJsonObject } from '../../http/json-body.ts';
import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { createGenerationFor } from '../../requests/create-generation.ts';

/** POST /v1/generate: validate, reserve quota and persist (one atomic store call), queue, answer 202. */
export function postGenerateHandler(services: Services): RouteHandler {
  return async function postGenerate(ctx) {
    const { account } = authed(ctx);
    const idempotencyKey = readIdempotencyKey(ctx);
    const body = await readJsonObject(ctx);
    const created = await createGenerationFor(services, account, {
      body,
      requestId: ctx.state.requestId,
      idempotency: idempotencyKey === undefined ? undefined : { key: idempotencyKey, bodyHash: bodyHash(body) },
    });

    ctx.status = 202;
    if (created.replayed) ctx.set('Idempotent-Replayed', 'true');
    if (created.batchId !== undefined) {
      // A batch has no one Location: each generation in the list is polled by its own id.
      ctx.body = { batch_id: created.batchId, generations: await services.generations.presentAll(created.generations) };
      return;
    }
    ctx.set('Location', `/v1/generation/${created.generation.id}`);
    const [presented] = await services.generations.presentAll([created.generation]);
    ctx.body = presented;
  };
}
