import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { PLAN_LABELS } from '../../domain/plan-label.ts';
import { limitsFor, quotaMonth, quotaResetsAt } from '../../domain/plans.ts';

/** GET /v1/account: the plan, its limits and this calendar month's (UTC) quota use. */
export function getAccountHandler(services: Services): RouteHandler {
  return async function getAccount(ctx) {
    const { account } = authed(ctx);
    const limits = limitsFor(account);
    const now = services.now();
    const month = quotaMonth(now);
    const used = await services.generations.usage(account.id, month);
    ctx.body = {
      object: 'account',
      id: account.id,
      email: account.email,
      name: account.name,
      plan: account.plan,
      plan_label: PLAN_LABELS[account.plan],
      created_at: account.created_at,
      rate_limit: { requests_per_minute: limits.rpm },
      quota: {
        month,
        limit: limits.monthly,
        used,
        remaining: limits.monthly === null ? null : Math.max(0, limits.monthly - used),
        resets_at: quotaResetsAt(now).toISOString(),
      },
      webhooks: limits.webhooks,
      features: {
        quality: limits.quality,
        api_access: limits.api_access,
        priority: limits.priority,
        webhooks: limits.webhooks,
        custom_styles: limits.custom_styles,
        dedicated_workers: limits.dedicated_workers,
      },
    };
  };
}
