import type { PlanName } from './model.ts';

/** How a plan is named to people (in messages and GET /v1/account). */
export const PLAN_LABELS: Readonly<Record<PlanName, string>> = {
  starter: 'Starter',
  developer: 'Developer',
  enterprise: 'Enterprise',
};
