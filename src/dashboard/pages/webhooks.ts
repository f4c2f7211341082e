/**
 * The webhooks page's place in the dashboard. Endpoint management, the signing secret and the delivery
 * log come with the webhooks work (issue 6), which replaces the body of this page.
 */
import type { AppContext } from '../../http/types.ts';
import { limitsFor } from '../../plans.ts';
import type { DashboardDeps } from '../deps.ts';
import { html } from '../html.ts';
import { sendHtml, type Viewer } from '../http.ts';
import { page } from '../views/layout.ts';

export function showWebhooks(_deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const allowed = limitsFor(viewer.account).webhooks;
    sendHtml(
      ctx,
      page(
        viewer,
        'webhooks',
        'Webhooks',
        allowed
          ? html`<section class="card"><h2>Coming in the next release</h2><p>Webhook endpoints, their signing secret and the delivery log are configured here from the next release. Until then, pass <code>callback_url</code> with <code>POST /v1/generate</code>.</p></section>`
          : html`<section class="card"><h2>Webhooks need the Developer plan</h2><p>With webhooks your server is told when a track is ready instead of polling. They are part of the Developer and Enterprise plans; ask the operator of this server to change your plan (see <a href="/">Overview</a>).</p></section>`,
      ),
    );
  };
}
