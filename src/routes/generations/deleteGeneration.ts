import { GenerationStateError } from '../../http/errors.ts';
import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import { findOwnGeneration } from './find-generation.ts';
import { isTerminal } from './present.ts';

/** DELETE /v1/generation/:id: a finished generation and its audio are removed (its quota unit stays spent). */
export function deleteGenerationHandler(services: Services): RouteHandler {
  return async function deleteGeneration(ctx) {
    const { account } = authed(ctx);
    const generation = findOwnGeneration(services, account.id, ctx.params['id'] ?? '');
    if (!isTerminal(generation.status)) throw new GenerationStateError('generation_not_finished', generation.status);
    await services.store.deleteGeneration(generation.id);
    ctx.status = 204;
  };
}
