import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { findOwnGeneration } from './find-generation.ts';

/** POST /v1/generation/:id/cancel: a waiting or rendering task ends failed with code "cancelled". */
export function cancelGenerationHandler(services: Services): RouteHandler {
  return async function cancelGeneration(ctx) {
    const { account } = authed(ctx);
    const cancelled = await services.generations.cancel(
      await findOwnGeneration(services, account.id, ctx.params.id ?? ''),
    );
    ctx.body = services.generations.present(cancelled);
  };
}
