import { ResourceNotFoundError } from '../../http/errors.ts';
import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import { presentGeneration } from './present.ts';

/** Ids are URL-safe base64ish; anything else cannot exist, so it is not looked up. */
const PLAUSIBLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** GET /v1/generation/:id (and /v1/generations/:id). Unknown and other accounts' ids answer the same 404. */
export function getGenerationHandler(services: Services): RouteHandler {
  return async function getGeneration(ctx) {
    const { account } = authed(ctx);
    const id = ctx.params['id'] ?? '';
    const generation = PLAUSIBLE_ID.test(id) ? services.store.getGeneration(account.id, id) : undefined;
    if (!generation) {
      throw new ResourceNotFoundError('generation_not_found', 'No generation with this id exists in your account. Check the id returned by POST /v1/generate.', 'id');
    }
    ctx.body = presentGeneration(generation, services.jobs.live(generation.id), services.signer, services.now());
  };
}
