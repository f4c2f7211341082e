import { parseQuery } from '../../http/query.ts';
import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { findOwnGeneration } from './find-generation.ts';
import { WaitQuery, waitForChange } from '../../requests/wait-for-change.ts';

/**
 * GET /v1/generation/:id (and /v1/generations/:id). Unknown and other accounts' ids answer the same 404.
 * `?wait=N` (seconds) holds the answer until the status changes or N passes.
 */
export function getGenerationHandler(services: Services): RouteHandler {
  return async function getGeneration(ctx) {
    const { account } = authed(ctx);
    const id = ctx.params.id ?? '';
    const { wait } = parseQuery(ctx.querystring, WaitQuery);
    await waitForChange(services, ctx, await findOwnGeneration(services, account.id, id), wait);
    const [presented] = await services.generations.presentAll([await findOwnGeneration(services, account.id, id)]);
    ctx.body = presented;
  };
}
