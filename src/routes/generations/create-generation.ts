/**
 * Creating a generation, whoever asks: POST /v1/generate and the dashboard's playground both come through
 * here, so both get the same validation, plan rules, quota reservation and queueing.
 */
import { PlanForbiddenError } from '../../http/errors.ts';
import { PLAN_LABELS } from '../../http/plan-label.ts';
import type { Services } from '../../http/types.ts';
import { limitsFor } from '../../plans.ts';
import { checkWebhookUrl } from '../../webhooks/url-safety.ts';
import type { Account, Generation } from '../../store/types.ts';
import { parseGenerateRequest } from './generate-request.ts';

export interface CreateGenerationInput {
  /** The request body, still unvalidated. */
  body: Record<string, unknown>;
  idempotency?: { key: string; bodyHash: string } | undefined;
}

export async function createGenerationFor(
  services: Services,
  account: Account,
  input: CreateGenerationInput,
): Promise<{ generation: Generation; replayed: boolean }> {
  const request = parseGenerateRequest(input.body, services.engine.listStyles());
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
  const result = await services.store.createGeneration(
    { account_id: account.id, ...request },
    { monthlyQuota: limits.monthly, idempotency: input.idempotency, now: services.now() },
  );
  if (!result.replayed) services.jobs.enqueue(result.generation);
  return result;
}
