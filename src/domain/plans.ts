/**
 * What each plan allows. The figures and features live here and nowhere else (the one place an operator edits
 * to change the plans; docs/plans.md); an account's own rpm/monthly (Enterprise's custom figures) override its
 * plan's defaults.
 */
import type { Account, PlanName } from './model.ts';

/**
 * `standard`: 44.1 kHz, 16-bit, MP3 up to 192 kbps, no stems. `high`: also 48 kHz, 24-bit, MP3 up to 320 kbps
 * and stems.
 */
export type Quality = 'standard' | 'high';
/**
 * `basic`: create, get, list, cancel and delete tasks, /v1/account and /v1/styles. `full`: also extend, remix,
 * variations, composition plans (`sections`) and musical fields (bpm, key, ...).
 */
export type ApiAccess = 'basic' | 'full';

export interface PlanLimits {
  /** Generations per calendar month (UTC); null = unlimited. */
  monthly: number | null;
  /** Requests per minute for the whole account. */
  rpm: number;
  /** Whether callback_url (webhooks) may be used. */
  webhooks: boolean;
  quality: Quality;
  api_access: ApiAccess;
  /** Which waiting tasks start first: a lower number before a higher one, fair between accounts of one rank. */
  priority: number;
  /** Whether the account may make styles of its own (POST /v1/styles) and generate with them. */
  custom_styles: boolean;
  /** Whether the operator may give the account workers of its own (`tunesmith worker --accounts`, PostgreSQL). */
  dedicated_workers: boolean;
}

export const PLAN_NAMES: readonly PlanName[] = ['starter', 'developer', 'enterprise'];

export const PLANS: Readonly<Record<PlanName, Readonly<PlanLimits>>> = {
  starter: {
    monthly: 10,
    rpm: 10,
    webhooks: false,
    quality: 'standard',
    api_access: 'basic',
    priority: 3,
    custom_styles: false,
    dedicated_workers: false,
  },
  developer: {
    monthly: 500,
    rpm: 60,
    webhooks: true,
    quality: 'high',
    api_access: 'full',
    priority: 2,
    custom_styles: false,
    dedicated_workers: false,
  },
  enterprise: {
    monthly: null,
    rpm: 600,
    webhooks: true,
    quality: 'high',
    api_access: 'full',
    priority: 1,
    custom_styles: true,
    dedicated_workers: true,
  },
};

/** The audio each quality allows. */
export const QUALITY: Readonly<
  Record<Quality, { maxSampleRate: number; maxBitDepth: number; maxMp3Bitrate: number; stems: boolean }>
> = {
  standard: { maxSampleRate: 44_100, maxBitDepth: 16, maxMp3Bitrate: 192, stems: false },
  high: { maxSampleRate: 48_000, maxBitDepth: 24, maxMp3Bitrate: 320, stems: true },
};

/** The plans whose limits pass `includes`, in PLAN_NAMES order: who to upgrade to for a feature. */
export const plansIncluding = (includes: (limits: PlanLimits) => boolean): PlanName[] =>
  PLAN_NAMES.filter((name) => includes(PLANS[name]));

export const isPlanName = (value: unknown): value is PlanName =>
  typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);

/** The limits that apply to an account: its plan's figures with its own overrides on top. */
export function limitsFor(account: Pick<Account, 'plan' | 'rpm' | 'monthly'>): PlanLimits {
  const plan = PLANS[account.plan];
  return { ...plan, monthly: account.monthly ?? plan.monthly, rpm: account.rpm ?? plan.rpm };
}

/** "YYYY-MM" of a moment, in UTC: the month whose quota a task counts against. */
export const quotaMonth = (at: Date): string => at.toISOString().slice(0, 7);

/** The first instant of the next UTC month: when a month's quota resets. */
export const quotaResetsAt = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
