/**
 * What each plan allows. The figures live here and nowhere else; an account's own rpm/monthly
 * (Enterprise's custom figures) override its plan's defaults.
 */
import type { Account, PlanName } from './store/types.ts';

export interface PlanLimits {
  /** Generations per calendar month (UTC); null = unlimited. */
  monthly: number | null;
  /** Requests per minute for the whole account. */
  rpm: number;
  /** Whether callback_url (webhooks) may be used. */
  webhooks: boolean;
}

export const PLAN_NAMES: readonly PlanName[] = ['starter', 'developer', 'enterprise'];

export const PLANS: Readonly<Record<PlanName, Readonly<PlanLimits>>> = {
  starter: { monthly: 10, rpm: 10, webhooks: false },
  developer: { monthly: 500, rpm: 60, webhooks: true },
  enterprise: { monthly: null, rpm: 600, webhooks: true },
};

export const isPlanName = (value: unknown): value is PlanName =>
  typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);

/** The limits that apply to an account: its plan's figures with its own overrides on top. */
export function limitsFor(account: Pick<Account, 'plan' | 'rpm' | 'monthly'>): PlanLimits {
  const plan = PLANS[account.plan];
  return {
    monthly: account.monthly ?? plan.monthly,
    rpm: account.rpm ?? plan.rpm,
    webhooks: plan.webhooks,
  };
}

/** "YYYY-MM" of a moment, in UTC: the month whose quota a task counts against. */
export const quotaMonth = (at: Date): string => at.toISOString().slice(0, 7);

/** The first instant of the next UTC month: when a month's quota resets. */
export const quotaResetsAt = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
