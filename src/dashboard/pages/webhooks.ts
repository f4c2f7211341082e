/**
 * Webhooks (Developer and Enterprise): account endpoints, the signing secret and the delivery log, all
 * through the same WebhookService and request reader as /v1/webhooks, so the page refuses exactly what
 * the API refuses. Starter accounts see what the plan would give them; their forms are refused (403).
 */
import { PLAN_LABELS } from '../../domain/plan-label.ts';
import { z } from 'zod';
import { parseQuery, queryEnum, queryInteger } from '../../http/query.ts';
import type { AppContext } from '../../http/types.ts';
import { limitsFor } from '../../domain/plans.ts';
import { parseEndpointRequest } from '../../requests/endpoint-request.ts';
import { DELIVERY_LIST_LIMITS, DELIVERY_STATES } from '../../requests/list-limits.ts';
import { webhooksOf } from '../../requests/webhooks-of.ts';
import { MAX_ENDPOINTS, type WebhookService } from '../../domain/webhooks/service.ts';
import { EVENT_TYPES, type DeliveryState, type EventType } from '../../domain/webhooks/types.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { readCheckedForm, seeOther, sendHtml, siteOrigin, type Viewer } from '../http.ts';
import type { FieldErrors } from '../views/forms.ts';
import { page } from '../views/layout.ts';
import {
  EMPTY_ENDPOINT_FORM,
  deliveryLog,
  endpointForm,
  endpointList,
  guide,
  secretSection,
  type EndpointFormValues,
} from '../views/webhook-sections.ts';

export const DELIVERY_PAGE_SIZE = 10;
const FORM_FIELDS = ['url', 'description', 'events'] as const;

/** What the last form did, shown once after its redirect in the section it went back to. */
const NOTICES = {
  added: { section: 'endpoints', text: 'The endpoint is added. It receives the next matching event.' },
  deleted: { section: 'endpoints', text: 'The endpoint is deleted. It receives nothing from now on.' },
  enabled: { section: 'endpoints', text: 'The endpoint is enabled again. New events are sent to it.' },
  rotated: { section: 'secret', text: 'The secret is rotated: the one shown is new.' },
  resent: { section: 'deliveries', text: 'The delivery is being sent again, with the same webhook-id.' },
} as const;
type Notice = keyof typeof NOTICES;
const NOTICE_NAMES = Object.keys(NOTICES) as [Notice, ...Notice[]];

type ParamContext = AppContext & { params: Record<string, string> };

const logHref = (state: DeliveryState | undefined, offset: number, done?: Notice): string => {
  const query = new URLSearchParams();
  if (state) query.set('status', state);
  if (offset > 0) query.set('offset', String(offset));
  if (done) query.set('done', done);
  const text = query.toString();
  return text === '' ? '/webhooks' : `/webhooks?${text}`;
};

/** The service, or the API's 503 when this server runs without webhooks. */
const serviceOf = (deps: DashboardDeps): WebhookService => webhooksOf(deps.services);

interface PageState {
  state: DeliveryState | undefined;
  offset: number;
  done?: Notice | undefined;
  form?: EndpointFormValues;
  errors?: FieldErrors;
}

async function webhooksPage(ctx: AppContext, deps: DashboardDeps, viewer: Viewer, view: PageState): Promise<Html> {
  const webhooks = serviceOf(deps);
  const { account } = viewer;
  const endpoints = await webhooks.listEndpoints(account);
  const secret = await webhooks.getSecret(account);
  const { items, total } = await webhooks.listDeliveries(account, {
    limit: DELIVERY_PAGE_SIZE,
    offset: view.offset,
    state: view.state,
  });
  const notice = view.done && NOTICES[view.done];
  const noticeFor = (section: string) => (notice?.section === section ? notice.text : undefined);
  return page(
    viewer,
    'webhooks',
    'Webhooks',
    html`<p class="lead muted">Your server is told when a task starts, completes or fails, instead of polling. Each event is signed, retried for over a day until your server answers 2xx, and logged below.</p>
${endpointForm(viewer.csrf, view.form ?? EMPTY_ENDPOINT_FORM, view.errors ?? {}, `${endpoints.length} of ${MAX_ENDPOINTS} endpoints used.`)}
${endpointList(viewer.csrf, endpoints, noticeFor('endpoints'))}
${secretSection(viewer.csrf, secret, noticeFor('secret'))}
${deliveryLog(viewer.csrf, endpoints, { items, total, offset: view.offset, pageSize: DELIVERY_PAGE_SIZE, state: view.state, href: logHref }, noticeFor('deliveries'))}
${guide(siteOrigin(ctx))}`,
  );
}

function planPage(viewer: Viewer): Html {
  return page(
    viewer,
    'webhooks',
    'Webhooks',
    html`<section class="card callout">
  <h2>Webhooks need the Developer plan</h2>
  <p>With webhooks your server is told when a track is ready instead of polling: account endpoints for every event, a per-request <code>callback_url</code>, signed requests, retries for over a day and a delivery log. They are part of the Developer and Enterprise plans; this account is on ${PLAN_LABELS[viewer.account.plan]}.</p>
  <p>Plans are changed by the operator of this server: to move to Developer, ask them, giving your account id <code>${viewer.account.id}</code>.</p>
</section>`,
  );
}

const WebhooksPageQuery = z.object({
  status: queryEnum(DELIVERY_STATES),
  offset: queryInteger({ min: 0, max: DELIVERY_LIST_LIMITS.maxOffset, fallback: 0 }),
  done: queryEnum(NOTICE_NAMES),
});

export function showWebhooks(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    if (!limitsFor(viewer.account).webhooks) return sendHtml(ctx, planPage(viewer));
    const { status: state, offset, done } = parseQuery(ctx.querystring, WebhooksPageQuery);
    sendHtml(ctx, await webhooksPage(ctx, deps, viewer, { state, offset, done }));
  };
}

/** Checks the CSRF token, then the plan (a Starter's form is a 403), and returns the form. */
async function readWebhookForm(
  ctx: AppContext,
  deps: DashboardDeps,
  viewer: Viewer,
): Promise<{ form: URLSearchParams; webhooks: WebhookService }> {
  const form = await readCheckedForm(ctx, deps, viewer);
  const webhooks = serviceOf(deps);
  webhooks.assertAllowed(viewer.account);
  return { form, webhooks };
}

export function addEndpoint(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const { form, webhooks } = await readWebhookForm(ctx, deps, viewer);
    const values: EndpointFormValues = {
      url: (form.get('url') ?? '').trim(),
      description: (form.get('description') ?? '').trim(),
      events: form.getAll('events').filter((e): e is EventType => (EVENT_TYPES as readonly string[]).includes(e)),
    };
    const again = (errors: FieldErrors, status: number) =>
      webhooksPage(ctx, deps, viewer, { state: undefined, offset: 0, form: values, errors }).then((body) =>
        sendHtml(ctx, body, status),
      );
    // A form cannot send an empty array; say it in the form's words rather than the API's.
    if (form.getAll('events').length === 0)
      return again({ events: 'Choose at least one event to send to this endpoint.' }, 400);
    try {
      // The API's own reader and checks: the same refusals, with the same reasons, as POST /v1/webhooks.
      const body: Record<string, unknown> = { url: values.url, events: form.getAll('events') };
      if (values.description !== '') body.description = values.description;
      await webhooks.createEndpoint(viewer.account, parseEndpointRequest(body));
    } catch (error) {
      const described = deps.describeError(error);
      if (described.status !== 400) throw error;
      const field =
        described.param && (FORM_FIELDS as readonly string[]).includes(described.param) ? described.param : '';
      return again({ [field]: described.message }, 400);
    }
    seeOther(ctx, `${logHref(undefined, 0, 'added')}#endpoints`);
  };
}

export function deleteEndpoint(deps: DashboardDeps) {
  return async (ctx: ParamContext, viewer: Viewer) => {
    const { webhooks } = await readWebhookForm(ctx, deps, viewer);
    await webhooks.deleteEndpoint(viewer.account, ctx.params.id ?? '');
    seeOther(ctx, `${logHref(undefined, 0, 'deleted')}#endpoints`);
  };
}

export function enableEndpoint(deps: DashboardDeps) {
  return async (ctx: ParamContext, viewer: Viewer) => {
    const { webhooks } = await readWebhookForm(ctx, deps, viewer);
    await webhooks.enableEndpoint(viewer.account, ctx.params.id ?? '');
    seeOther(ctx, `${logHref(undefined, 0, 'enabled')}#endpoints`);
  };
}

export function rotateSecret(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const { webhooks } = await readWebhookForm(ctx, deps, viewer);
    await webhooks.rotateSecret(viewer.account);
    seeOther(ctx, `${logHref(undefined, 0, 'rotated')}#secret`);
  };
}

export function resendDelivery(deps: DashboardDeps) {
  return async (ctx: ParamContext, viewer: Viewer) => {
    const { form, webhooks } = await readWebhookForm(ctx, deps, viewer);
    await webhooks.resend(viewer.account, ctx.params.id ?? '');
    // Back to the page of the log the button was on.
    const back = new URLSearchParams([...form].filter(([name]) => name === 'status' || name === 'offset'));
    const { status: state, offset } = parseQuery(back.toString(), WebhooksPageQuery);
    seeOther(ctx, `${logHref(state, offset, 'resent')}#deliveries`);
  };
}
