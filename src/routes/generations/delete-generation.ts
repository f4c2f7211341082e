import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { findOwnGeneration } from './find-generation.ts';

/** DELETE /v1/generation/:id: a finished generation and its audio are removed (its quota unit stays spent). */
export function deleteGenerationHandler(services: Services): RouteHandler {
  return async function deleteGeneration(ctx) {
    const { account } = authed(ctx);
    await services.generations.delete(await findOwnGeneration(services, account.id, ctx.params.id ?? ''));
    ctx.status = 204;
  };
}
