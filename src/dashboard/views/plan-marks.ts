/**
 * What the playground's controls say about the account's plan: a control the plan does not include is shown
 * disabled with the plans that include it, so it is never sent and refused with a 403 after the fact.
 */
import type { Account } from '../../domain/model.ts';
import { PLAN_LABELS } from '../../domain/plan-label.ts';
import { QUALITY, limitsFor, plansIncluding, type PlanLimits } from '../../domain/plans.ts';
import { html, type Html } from '../html.ts';

/** What the plan lets the playground ask for. */
export interface PlanMarks {
  fullAccess: boolean;
  stems: boolean;
  customStyles: boolean;
  maxSampleRate: number;
  maxBitDepth: number;
  maxMp3Bitrate: number;
  /** "Developer and Enterprise plans": who has a feature the account's plan lacks. */
  includedIn(includes: (plan: PlanLimits) => boolean): string;
}

export function planMarks(account: Account): PlanMarks {
  const limits = limitsFor(account);
  const quality = QUALITY[limits.quality];
  return {
    fullAccess: limits.api_access === 'full',
    stems: quality.stems,
    customStyles: limits.custom_styles,
    maxSampleRate: quality.maxSampleRate,
    maxBitDepth: quality.maxBitDepth,
    maxMp3Bitrate: quality.maxMp3Bitrate,
    includedIn: (includes) => {
      const labels = plansIncluding(includes).map((name) => PLAN_LABELS[name]);
      const list = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : (labels[0] ?? 'no');
      return `${list} plan${labels.length > 1 ? 's' : ''}`;
    },
  };
}

export const FULL_ACCESS = (plan: PlanLimits): boolean => plan.api_access === 'full';

/** The note beside a disabled control. */
export const lockedNote = (what: string, plans: string): Html =>
  html`<p class="hint plan-locked">${what}: ${plans} only.</p>`;

export const disabledIf = (locked: boolean): Html => (locked ? html` disabled` : html``);
