import { GenerationStateError } from '../../http/errors.ts';
import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import { findOwnGeneration } from './find-generation.ts';
import { isTerminal, presentGeneration } from './present.ts';

/** POST /v1/generation/:id/cancel: a waiting or rendering task ends failed with code "cancelled". */
export function cancelGenerationHandler(services: Services): RouteHandler {
  return async function cancelGeneration(ctx) {
    const { account } = authed(ctx);
    const generation = findOwnGeneration(services, account.id, ctx.params['id'] ?? '');
    if (isTerminal(generation.status)) throw new GenerationStateError('generation_finished', generation.status);
    const cancelled = await services.jobs.cancel(generation);
    ctx.body = presentGeneration(cancelled, services.jobs.live(cancelled.id), services.signer, services.now());
  };
}
