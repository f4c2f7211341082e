import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import { findOwnGeneration } from './find-generation.ts';
import { presentGeneration } from './present.ts';

/** GET /v1/generation/:id (and /v1/generations/:id). Unknown and other accounts' ids answer the same 404. */
export function getGenerationHandler(services: Services): RouteHandler {
  return async function getGeneration(ctx) {
    const { account } = authed(ctx);
    const generation = findOwnGeneration(services, account.id, ctx.params['id'] ?? '');
    ctx.body = presentGeneration(generation, services.jobs.live(generation.id), services.signer, services.now());
  };
}
