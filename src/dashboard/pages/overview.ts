/** The account at a glance: plan, this month's use against the quota, the rate limit, and the plans. */
import { PLAN_LABELS } from '../../domain/plan-label.ts';
import type { AppContext } from '../../http/types.ts';
import { PLAN_NAMES, PLANS, limitsFor, quotaMonth, quotaResetsAt } from '../../domain/plans.ts';
import type { DashboardDeps } from '../deps.ts';
import { EMAIL_MAX_CHARS } from '../../email.ts';
import { html } from '../html.ts';
import { sendHtml, type Viewer } from '../http.ts';
import { formatDate } from '../views/generation-card.ts';
import { csrfField, describedBy, fieldError, type FieldErrors } from '../views/forms.ts';
import { page } from '../views/layout.ts';

const PLAN_PITCH: Record<(typeof PLAN_NAMES)[number], string> = {
  starter: 'Try ideas and prototype.',
  developer: 'Ship music into your app.',
  enterprise: 'Volume, with your own limits.',
};

/** The overview, optionally with the sign-in details form re-shown with its errors. */
export function showOverview(
  deps: DashboardDeps,
  credentialsForm: { email: string; errors: FieldErrors } = { email: '', errors: {} },
) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const needsCredentials = !(await deps.services.accounts.hasPassword(viewer.account.id));
    const hasErrors = Object.keys(credentialsForm.errors).length > 0;
    const { account } = viewer;
    const now = deps.services.now();
    const limits = limitsFor(account);
    const used = await deps.services.generations.usage(account.id, quotaMonth(now));
    const keys = (await deps.services.repository.listKeys(account.id)).filter((k) => k.revoked_at === null).length;
    const { total } = await deps.services.generations.list(account.id, { limit: 1, offset: 0 });
    const quotaText = limits.monthly === null ? `${used} used · unlimited` : `${used} of ${limits.monthly} used`;
    const firstSteps = keys === 0 || total === 0;
    sendHtml(
      ctx,
      page(
        viewer,
        'overview',
        'Overview',
        html`${ctx.query.signin === 'saved' ? html`<div class="alert alert-ok" role="status">Saved. From now on you can also sign in with your email and password.</div>` : ''}
${
  needsCredentials
    ? html`<section class="card">
  <h2>Set an email and password</h2>
  <p class="muted">This account signed in with a one-time link. Add an email and password to sign in again after this session ends.</p>
  <form method="post" action="/account/credentials" class="row" novalidate>
    ${csrfField(viewer.csrf)}
    <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" maxlength="${EMAIL_MAX_CHARS}" value="${credentialsForm.email}"${describedBy(credentialsForm.errors, 'email')}>${fieldError(credentialsForm.errors, 'email')}</div>
    <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" maxlength="200"${describedBy(credentialsForm.errors, 'password')}>${fieldError(credentialsForm.errors, 'password')}</div>
    <div class="field end"><button type="submit" class="button">Save</button></div>
  </form>
</section>`
    : ''
}
${
  firstSteps
    ? html`<section class="card callout">
  <h2>Get started in two steps</h2>
  <ol class="steps">
    <li class="${keys > 0 ? 'done' : ''}"><a href="/keys">Create an API key</a> to call the API from your code.</li>
    <li class="${total > 0 ? 'done' : ''}">Or <a href="/playground">try a prompt in the playground</a> and hear the result right here.</li>
  </ol>
</section>`
    : ''
}
<div class="grid-3">
  <section class="card stat">
    <h2>Plan</h2>
    <p class="big">${PLAN_LABELS[account.plan]}</p>
    <p class="muted small">${limits.webhooks ? 'Webhooks included' : 'No webhooks on this plan'}</p>
  </section>
  <section class="card stat">
    <h2>Generations this month</h2>
    <p class="big">${used}<span class="of">${limits.monthly === null ? '' : ` / ${limits.monthly}`}</span></p>
    ${limits.monthly === null ? html`<p class="muted small">Unlimited</p>` : html`<progress class="quota" max="${limits.monthly}" value="${Math.min(used, limits.monthly)}" aria-label="${quotaText}"></progress>`}
    <p class="muted small">Resets ${formatDate(quotaResetsAt(now).toISOString())}</p>
  </section>
  <section class="card stat">
    <h2>Rate limit</h2>
    <p class="big">${limits.rpm}<span class="of"> req/min</span></p>
    <p class="muted small">Shared by all of this account's keys and the playground</p>
  </section>
</div>
<h2 class="section-title">Plans</h2>
<div class="grid-3 plans">
  ${PLAN_NAMES.map((name) => {
    const plan = PLANS[name];
    const current = name === account.plan;
    return html`<section class="card plan${current ? ' current' : ''}">
    <h3>${PLAN_LABELS[name]} ${current ? html`<span class="badge badge-completed">Your plan</span>` : ''}</h3>
    <p class="muted">${PLAN_PITCH[name]}</p>
    <ul class="features">
      <li><strong>${plan.monthly === null ? 'Unlimited' : plan.monthly}</strong> generations a month</li>
      <li><strong>${plan.rpm}</strong> requests a minute</li>
      <li>Tracks of 30–180 s as WAV, MP3, Opus, FLAC and MIDI</li>
      <li>${
        plan.quality === 'high'
          ? 'High quality: 48 kHz, 24-bit, MP3 at 320 kbps, stems'
          : html`Standard quality: 44.1 kHz, 16-bit, MP3 up to 192 kbps <span class="muted">(no stems)</span>`
      }</li>
      <li>${
        plan.api_access === 'full'
          ? 'Full API: extend, remix, variations, composition plans, musical fields'
          : html`Basic API: create, list, download <span class="muted">(no extend, remix or variations)</span>`
      }</li>
      <li>${plan.webhooks ? 'Webhook callbacks' : html`<span class="muted">No webhooks</span>`}</li>
      <li>${priorityLabel(plan.priority)}</li>
      <li>${plan.custom_styles ? 'Custom styles: your own, made from the built-in ones' : html`<span class="muted">No custom styles</span>`}</li>
      <li>${plan.dedicated_workers ? 'Dedicated render workers (set up by the operator)' : html`<span class="muted">Shared render workers</span>`}</li>
      ${name === 'enterprise' ? html`<li>Custom limits per account</li>` : ''}
    </ul>
  </section>`;
  })}
</div>
<p class="muted note">Plans are changed by the operator of this server: to move, ask them, giving your account id <code>${account.id}</code>.</p>`,
      ),
      hasErrors ? 400 : 200,
    );
  };
}

/** How a plan's queue rank reads on its card: the first rank starts first. */
function priorityLabel(priority: number): string {
  const ranks = [...new Set(PLAN_NAMES.map((name) => PLANS[name].priority))].sort((a, b) => a - b);
  if (ranks.length === 1) return 'Tasks queued fairly with every account';
  if (priority === ranks[0]) return 'First in the render queue';
  if (priority === ranks.at(-1)) return 'Rendered after the higher plans';
  return 'Priority in the render queue';
}
