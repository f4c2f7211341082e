import { PlanForbiddenError } from '../../http/errors.ts';
import { bodyHash, readIdempotencyKey } from '../../http/idempotency.ts';
import { readJsonObject } from '../../http/json-body.ts';
import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import { PLAN_LABELS } from '../../http/plan-label.ts';
import { limitsFor } from '../../plans.ts';
import { checkWebhookUrl } from '../../webhooks/url-safety.ts';
import { parseGenerateRequest } from './generate-request.ts';
import { presentGeneration } from './present.ts';

/** POST /v1/generate: validate, reserve quota and persist (one atomic store call), queue, answer 202. */
export function postGenerateHandler(services: Services): RouteHandler {
  return async function postGenerate(ctx) {
    const { account } = authed(ctx);
    const idempotencyKey = readIdempotencyKey(ctx);
    const body = await readJsonObject(ctx);
    const request = parseGenerateRequest(body, services.engine.listStyles());
    // Lyrics that cannot be sung (too many lines for the track) are a 400 now, not a failed task later.
    if (request.lyrics !== null) services.engine.checkLyrics(request);
    const limits = limitsFor(account);
    if (request.callback_url !== null && !limits.webhooks) {
      throw new PlanForbiddenError('callback_url', PLAN_LABELS[account.plan], 'Webhooks (callback_url)');
    }
    if (request.callback_url !== null) {
      const url = request.callback_url;
      await (services.webhooks?.checkUrl(url, 'callback_url') ?? checkWebhookUrl(url, 'callback_url', { allowPrivate: services.config.webhookAllowPrivate ?? false }));
    }

    const { generation, replayed } = await services.store.createGeneration(
      { account_id: account.id, ...request },
      {
        monthlyQuota: limits.monthly,
        idempotency: idempotencyKey === undefined ? undefined : { key: idempotencyKey, bodyHash: bodyHash(body) },
        now: services.now(),
      },
    );
    if (!replayed) services.jobs.enqueue(generation);

    ctx.status = 202;
    ctx.set('Location', `/v1/generation/${generation.id}`);
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.body = presentGeneration(generation, services.jobs.live(generation.id), services.signer, services.now());
  };
}
