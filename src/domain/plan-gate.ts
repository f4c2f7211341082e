/**
 * What an account's plan lets a request ask for (src/domain/plans.ts): the audio quality, the API calls beyond the basic
 * ones, webhooks. A request asking for more is refused with a 403 naming the plans that include it, never quietly
 * given less. A derived task is judged by what its own request asks, not by what its source was made with, so a
 * track made before a downgrade can still be extended by a plan that allows extending.
 */
import { PlanForbiddenError } from './errors.ts';
import { PLAN_LABELS } from './plan-label.ts';
import { QUALITY, limitsFor, plansIncluding, type PlanLimits } from './plans.ts';
import type { Account, EncodingSettings } from './model.ts';

/** The parts of a request the plan judges; absent means not asked for. */
export interface PlanAsk {
  encoding?: EncodingSettings | undefined;
  stems?: boolean | undefined;
  /** The request uses a call or field of full API access: extend, remix, variations, sections, musical fields. */
  fullAccess?: { param: string | undefined; feature: string } | undefined;
  callbackUrl?: boolean | undefined;
}

/** The 403 for a feature the account's plan lacks, naming the plans whose limits `includes` accepts. */
function refusal(
  account: Account,
  param: string | undefined,
  feature: string,
  includes: (plan: PlanLimits) => boolean,
): PlanForbiddenError {
  return new PlanForbiddenError(
    param,
    PLAN_LABELS[account.plan],
    feature,
    plansIncluding(includes).map((name) => PLAN_LABELS[name]),
  );
}

export function checkPlan(account: Account, ask: PlanAsk): void {
  const limits = limitsFor(account);
  const refuse = (param: string | undefined, feature: string, includes: (plan: PlanLimits) => boolean): never => {
    throw refusal(account, param, feature, includes);
  };
  if (ask.fullAccess && limits.api_access !== 'full')
    refuse(ask.fullAccess.param, ask.fullAccess.feature, (plan) => plan.api_access === 'full');
  const quality = QUALITY[limits.quality];
  const encoding = ask.encoding;
  if (encoding && encoding.sample_rate > quality.maxSampleRate)
    refuse(
      'sample_rate',
      `${encoding.sample_rate / 1000} kHz tracks`,
      (plan) => QUALITY[plan.quality].maxSampleRate >= encoding.sample_rate,
    );
  if (encoding && encoding.bit_depth > quality.maxBitDepth)
    refuse(
      'bit_depth',
      `${encoding.bit_depth}-bit tracks`,
      (plan) => QUALITY[plan.quality].maxBitDepth >= encoding.bit_depth,
    );
  const bitrate = encoding?.bitrate;
  if (bitrate != null && bitrate > quality.maxMp3Bitrate)
    refuse('bitrate', `MP3s at ${bitrate} kbps`, (plan) => QUALITY[plan.quality].maxMp3Bitrate >= bitrate);
  if (ask.stems && !quality.stems) refuse('stems', 'Stems', (plan) => QUALITY[plan.quality].stems);
  if (ask.callbackUrl && !limits.webhooks) refuse('callback_url', 'Webhooks (callback_url)', (plan) => plan.webhooks);
}

/** Throws unless the account's plan includes styles of its own (POST /v1/styles, and generating with them). */
export function checkCustomStylesPlan(account: Account, param?: string): void {
  if (!limitsFor(account).custom_styles) throw refusal(account, param, 'Custom styles', (plan) => plan.custom_styles);
}

/** Throws unless the account's plan includes webhooks (the /v1/webhooks endpoints). */
export function checkWebhooksPlan(account: Account): void {
  if (!limitsFor(account).webhooks) throw refusal(account, undefined, 'Webhooks', (plan) => plan.webhooks);
}
