/**
 * Creating a generation, whoever asks: POST /v1/generate and the dashboard's playground both come through
 * here, so both get the same validation, plan rules, quota reservation and queueing.
 */
import { PlanForbiddenError } from '../../http/errors.ts';
import { PLAN_LABELS } from '../../http/plan-label.ts';
import type { Services } from '../../http/types.ts';
import { limitsFor } from '../../plans.ts';
import type { Account, Generation } from '../../store/types.ts';
import { webhooksOf } from '../webhooks/index.ts';
import { parseGenerateRequest } from './generate-request.ts';

export interface CreateGenerationInput {
  /** The request body, still unvalidated. */
  body: Record<string, unknown>;
  idempotency?: { key: string; bodyHash: string } | undefined;
  /** The X-Request-Id of the asking request, kept with the task for its log lines. */
  requestId?: string | undefined;
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
  if (request.callback_url !== null) {
    if (!limits.webhooks) throw new PlanForbiddenError('callback_url', PLAN_LABELS[account.plan], 'Webhooks (callback_url)');
    // Refused where nothing would send it (the same 503 as /v1/webhooks), and checked by the service's own rules.
    await webhooksOf(services).checkUrl(request.callback_url, 'callback_url');
  }
  const result = await services.store.createGeneration(
    { account_id: account.id, ...request, request_id: input.requestId ?? null },
    { monthlyQuota: limits.monthly, idempotency: input.idempotency, now: services.now() },
  );
  if (!result.replayed) services.jobs.enqueue(result.generation);
  return result;
}
