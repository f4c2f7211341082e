/**
 * The parts of the webhooks page: the add-endpoint form, the endpoint list, the signing secret, the
 * delivery log and the short guide. Records are shown through the API's presenters, so the page and
 * GET /v1/webhooks agree on every field.
 */
import { presentDelivery, presentEndpoint } from '../../domain/webhooks/present.ts';
import type { DeliveryView, SecretView } from '../../domain/webhooks/service.ts';
import {
  DEFAULT_EVENTS,
  EVENT_TYPES,
  type DeliveryState,
  type EventType,
  type WebhookEndpoint,
} from '../../domain/webhooks/types.ts';
import { html, type Html } from '../html.ts';
import { csrfField, describedBy, fieldError, formError, type FieldErrors } from './forms.ts';
import { formatDate } from './generation-card.ts';

export interface EndpointFormValues {
  url: string;
  description: string;
  events: readonly EventType[];
}

export const EMPTY_ENDPOINT_FORM: EndpointFormValues = { url: '', description: '', events: DEFAULT_EVENTS };

const EVENT_HINTS: Record<EventType, string> = {
  'generation.completed': 'the track is ready, with download links',
  'generation.failed': 'the task failed for good, with the reason',
  'generation.processing': 'a render starts',
};

const STATE_LABELS: Record<DeliveryState, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const STATE_BADGES: Record<DeliveryState, string> = {
  pending: 'pending',
  delivered: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** To the second: attempts of one delivery are often seconds apart. */
export const formatTime = (iso: string): string => `${new Date(iso).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

const eventId = (type: EventType): string => `event-${type.replace('.', '-')}`;

/** What the last form did, inside the section it redirected to (the page opens scrolled there). */
const noticeBox = (notice: string | undefined): Html =>
  notice ? html`<div class="alert alert-ok" role="status">${notice}</div>` : html``;

export function endpointForm(csrf: string, values: EndpointFormValues, errors: FieldErrors, limitsText: string): Html {
  return html`<section class="card" id="add-endpoint">
  <h2>Add an endpoint</h2>
  <p class="muted small">Every matching event of this account's tasks is sent here, signed with the secret below. ${limitsText}</p>
  <form method="post" action="/webhooks/endpoints" class="stack" novalidate>
    ${csrfField(csrf)}
    ${formError(errors)}
    <label for="endpoint-url">URL</label>
    <input id="endpoint-url" name="url" type="url" inputmode="url" maxlength="2048" placeholder="https://example.com/hooks/tunesmith" value="${values.url}"${describedBy(errors, 'url')}>
    ${fieldError(errors, 'url')}
    <label for="endpoint-description">Description <span class="muted">(optional)</span></label>
    <input id="endpoint-description" name="description" maxlength="200" placeholder="e.g. production game server" value="${values.description}"${describedBy(errors, 'description')}>
    ${fieldError(errors, 'description')}
    <fieldset class="events"${describedBy(errors, 'events')}>
      <legend>Events</legend>
      ${EVENT_TYPES.map((type) => html`<label class="check" for="${eventId(type)}"><input type="checkbox" id="${eventId(type)}" name="events" value="${type}"${values.events.includes(type) ? html` checked` : ''}> <code>${type}</code> <span class="muted small">${EVENT_HINTS[type]}</span></label>`)}
    </fieldset>
    ${fieldError(errors, 'events')}
    <div><button type="submit" class="button">Add endpoint</button></div>
  </form>
</section>`;
}

export function endpointList(csrf: string, endpoints: readonly WebhookEndpoint[], notice?: string): Html {
  const sorted = [...endpoints].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
  );
  return html`<section class="card" id="endpoints">
  <h2>Endpoints</h2>
  ${noticeBox(notice)}
  ${
    sorted.length === 0
      ? html`<p class="empty">No endpoints yet. Add one above, or pass <code>callback_url</code> with a single request (see below).</p>`
      : html`<div class="table-wrap"><table class="webhook-table endpoints">
    <thead><tr><th>URL</th><th>Events</th><th>Status</th><th>Created</th><th></th></tr></thead>
    <tbody>${sorted.map((endpoint) => endpointRow(csrf, endpoint))}</tbody>
  </table></div>`
  }
</section>`;
}

function endpointRow(csrf: string, record: WebhookEndpoint): Html {
  const endpoint = presentEndpoint(record);
  const disabled = endpoint.status === 'disabled';
  return html`<tr class="${disabled ? 'revoked' : ''}" data-endpoint="${endpoint.id}">
  <td data-label="URL" class="url-cell"><div><code>${endpoint.url}</code>${endpoint.description ? html`<div class="muted small">${endpoint.description}</div>` : ''}</div></td>
  <td data-label="Events"><ul class="event-list">${endpoint.events.map((type) => html`<li><code>${type}</code></li>`)}</ul></td>
  <td data-label="Status"><div>${
    disabled
      ? html`<span class="badge badge-failed">Disabled</span>
    <p class="small error-text">${endpoint.disabled_reason ?? 'Disabled after failing for too long.'}</p>
    <form method="post" action="/webhooks/endpoints/${endpoint.id}/enable">${csrfField(csrf)}<button type="submit" class="button small secondary">Enable</button></form>`
      : html`<span class="badge badge-completed">Enabled</span>${endpoint.failing_since ? html`<p class="small warn-text">Failing since ${formatDate(endpoint.failing_since)}</p>` : ''}`
  }</div></td>
  <td data-label="Created">${formatDate(endpoint.created_at)}</td>
  <td class="actions"><details class="confirm">
    <summary class="button small danger-outline">Delete</summary>
    <div class="confirm-box">
      <p>Delete the endpoint <strong>${endpoint.url}</strong>? It receives nothing from now on; its pending deliveries are cancelled.</p>
      <form method="post" action="/webhooks/endpoints/${endpoint.id}/delete">${csrfField(csrf)}<button type="submit" class="button small danger">Yes, delete it</button></form>
    </div>
  </details></td>
</tr>`;
}

export function secretSection(csrf: string, secret: SecretView, notice?: string): Html {
  const masked = `whsec_${'•'.repeat(24)}`;
  return html`<section class="card" id="secret">
  <h2>Signing secret</h2>
  ${noticeBox(notice)}
  <p class="muted small">Every webhook of this account, to endpoints and to <code>callback_url</code>, is signed with it. Keep it on your server only.</p>
  <div class="copy-row">
    <code class="secret"><span data-role="masked">${masked}</span><span data-role="value" id="webhook-secret" hidden>${secret.secret}</span></code>
    <div class="button-pair">
      <button type="button" class="button small secondary" data-reveal="webhook-secret" aria-pressed="false">Reveal</button>
      <button type="button" class="button small" data-copy="webhook-secret">Copy</button>
    </div>
  </div>
  <p class="muted small">Created ${formatDate(secret.created_at)}.</p>
  ${
    secret.previous_expires_at
      ? html`<div class="alert alert-warn" role="status">Rotation in progress: the previous secret also signs every webhook until <strong>${formatTime(secret.previous_expires_at)}</strong>, so each one carries two signatures. Move your receivers to the new secret before then.</div>`
      : ''
  }
  <details class="confirm inline">
    <summary class="button small danger-outline">Rotate secret</summary>
    <div class="confirm-box">
      <p>Make a new secret? The current one keeps signing beside it for 24 hours, then stops: update your receivers within that time.</p>
      <form method="post" action="/webhooks/secret/rotate">${csrfField(csrf)}<button type="submit" class="button small danger">Yes, rotate</button></form>
    </div>
  </details>
</section>`;
}

export interface DeliveryLogView {
  items: readonly DeliveryView[];
  total: number;
  offset: number;
  pageSize: number;
  state: DeliveryState | undefined;
  /** The page's address for a filter and offset. */
  href: (state: DeliveryState | undefined, offset: number) => string;
}

export function deliveryLog(
  csrf: string,
  endpoints: readonly WebhookEndpoint[],
  log: DeliveryLogView,
  notice?: string,
): Html {
  const { items, total, offset, pageSize, state } = log;
  const from = total === 0 ? 0 : offset + 1;
  const to = offset + items.length;
  const filters: (DeliveryState | undefined)[] = [undefined, 'pending', 'delivered', 'failed', 'cancelled'];
  return html`<section class="card" id="deliveries">
  <h2>Delivery log</h2>
  ${noticeBox(notice)}
  <nav class="tabs" aria-label="Filter deliveries by state">
    ${filters.map((f) => html`<a href="${log.href(f, 0)}#deliveries"${f === state ? html` class="active" aria-current="true"` : ''}>${f ? STATE_LABELS[f] : 'All'}</a>`)}
  </nav>
  ${
    items.length === 0
      ? html`<p class="empty">${offset > 0 ? 'No deliveries on this page.' : state ? 'No deliveries in this state.' : 'No deliveries yet. They appear here when a task of this account starts, completes or fails.'}</p>`
      : html`<p class="muted small">${from}–${to} of ${total}, newest first. Deliveries are kept 14 days.</p>
  <div class="table-wrap"><table class="webhook-table deliveries">
    <thead><tr><th>Event</th><th>Endpoint</th><th>State</th><th>Attempts</th><th>Next attempt</th><th></th></tr></thead>
    <tbody>${items.map((d) => deliveryRow(csrf, endpoints, d, log))}</tbody>
  </table></div>
  <nav class="pager" aria-label="Delivery pages">
    ${offset > 0 ? html`<a class="button secondary small" href="${log.href(state, Math.max(0, offset - pageSize))}#deliveries" rel="prev">← Newer</a>` : html`<span></span>`}
    ${to < total ? html`<a class="button secondary small" href="${log.href(state, offset + pageSize)}#deliveries" rel="next">Older →</a>` : html`<span></span>`}
  </nav>`
  }
</section>`;
}

function deliveryRow(
  csrf: string,
  endpoints: readonly WebhookEndpoint[],
  view: DeliveryView,
  log: DeliveryLogView,
): Html {
  const d = presentDelivery(view);
  const endpoint = d.endpoint_id === null ? undefined : endpoints.find((e) => e.id === d.endpoint_id);
  const last = d.attempts.at(-1);
  return html`<tr data-delivery="${d.id}">
  <td data-label="Event"><div><code>${d.event_type}</code><div class="muted small">${d.generation_id}</div><div class="muted small nowrap">${formatTime(d.created_at)}</div></div></td>
  <td data-label="Endpoint" class="url-cell"><div><code>${d.url}</code>${d.endpoint_id === null ? html`<div class="muted small">callback_url of the request</div>` : endpoint ? '' : html`<div class="muted small">endpoint deleted</div>`}</div></td>
  <td data-label="State"><span class="badge badge-${STATE_BADGES[d.status]}">${STATE_LABELS[d.status]}</span></td>
  <td data-label="Attempts">${
    last === undefined
      ? html`<span class="muted">None yet</span>`
      : html`<details class="attempts">
      <summary>${d.attempts.length} · last ${attemptResult(last)}</summary>
      <ol>${d.attempts.map((a) => html`<li><span class="muted nowrap">${formatTime(a.at)}</span> ${attemptResult(a)} · ${a.latency_ms} ms${a.error ? html` · <span class="error-text">${a.error}</span>` : ''}</li>`)}</ol>
      <p class="muted small">webhook-id <code>${d.event_id}</code> on every attempt</p>
    </details>`
  }</td>
  <td data-label="Next attempt">${d.next_attempt_at ? html`<span class="nowrap">${formatTime(d.next_attempt_at)}</span>` : html`<span class="muted">—</span>`}</td>
  <td class="actions"><form method="post" action="/webhooks/deliveries/${d.id}/resend">${csrfField(csrf)}
    <input type="hidden" name="offset" value="${log.offset}">${log.state ? html`<input type="hidden" name="status" value="${log.state}">` : ''}
    <button type="submit" class="button small secondary">Resend</button></form></td>
</tr>`;
}

const attemptResult = (a: { status_code: number | null; error: string | null }): Html =>
  a.status_code === null
    ? html`<span class="status-code s5">no answer</span>`
    : html`<span class="status-code s${String(a.status_code)[0]}">${a.status_code}</span>`;

const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// On the raw body, before JSON.parse. secret: "whsec_…" from this page.
function verify(secret, headers, rawBody) {
  const id = headers['webhook-id'], timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  return headers['webhook-signature'].split(' ').some((part) => {
    const given = Buffer.from(part.slice(3), 'base64');
    return part.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;

const CALLBACK_SNIPPET = (base: string) => `curl -s -X POST ${base}/v1/generate \\
  -H "Authorization: Bearer $TUNESMITH_KEY" -H "Content-Type: application/json" \\
  -d '{"prompt": "a calm lofi beat", "callback_url": "https://example.com/hooks/tunesmith"}'`;

export function guide(base: string): Html {
  return html`<div class="webhooks-guide">
<section class="card" id="verify">
  <h2>Verify a webhook</h2>
  <p class="small">Each request carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (<a href="https://www.standardwebhooks.com">Standard Webhooks</a>). Check the signature before trusting the body, and deduplicate on <code>webhook-id</code>: an event can arrive more than once.</p>
  <div class="copy-row code-block"><pre id="verify-snippet">${VERIFY_SNIPPET}</pre><button type="button" class="button small secondary" data-copy="verify-snippet">Copy</button></div>
  <p class="muted small">The full recipe, the payload and the retry schedule are in the documentation's Webhooks page (docs/webhooks.md).</p>
</section>
<section class="card" id="callback-url">
  <h2>Per request: <code>callback_url</code></h2>
  <p class="small">To hear about one task only, pass <code>callback_url</code> with <code>POST /v1/generate</code>. That URL gets the task's <code>generation.completed</code> or <code>generation.failed</code>, signed with the same secret and retried the same way, besides the endpoints above. Its deliveries appear in the log as “callback_url of the request”.</p>
  <div class="copy-row code-block"><pre id="callback-snippet">${CALLBACK_SNIPPET(base)}</pre><button type="button" class="button small secondary" data-copy="callback-snippet">Copy</button></div>
  <p class="muted small">URLs must be public <code>http</code> or <code>https</code> addresses; loopback, private and cloud metadata addresses are refused unless the operator allows private targets.</p>
</section>
</div>`;
}
