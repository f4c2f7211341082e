/** API keys: create a named key (shown once), list them, revoke one after a confirmation. */
import type { AppContext } from '../../http/types.ts';
import type { ApiKey } from '../../domain/model.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { readCheckedForm, seeOther, sendHtml, type Viewer } from '../http.ts';
import { csrfField, describedBy, fieldError, type FieldErrors } from '../views/forms.ts';
import { formatDate } from '../views/generation-card.ts';
import { page } from '../views/layout.ts';

const NAME_CHARS = 60;
const CONTROL = /\p{Cc}/u;

interface KeysView {
  created?: { key: string; record: ApiKey };
  revoked?: boolean;
  name?: string;
  errors?: FieldErrors;
}

async function keysPage(deps: DashboardDeps, viewer: Viewer, view: KeysView): Promise<Html> {
  const keys = (await deps.services.accounts.keys(viewer.account.id)).sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
  );
  const errors = view.errors ?? {};
  return page(
    viewer,
    'keys',
    'API keys',
    html`${
      view.created
        ? html`<section class="card new-key" role="status">
  <h2>Your new key “${view.created.record.name}”</h2>
  <p class="warning">Copy it now: it will not be shown again. Anyone with this key can use your account's quota.</p>
  <div class="copy-row"><code class="secret" id="new-key">${view.created.key}</code><button type="button" class="button small" data-copy="new-key">Copy</button></div>
  <p class="muted small">Use it as <code>Authorization: Bearer &lt;key&gt;</code>. See <a href="/docs">Docs</a> for examples.</p>
</section>`
        : ''
    }
${view.revoked ? html`<div class="alert alert-ok" role="status">The key is revoked. Requests made with it are refused from now on.</div>` : ''}
<section class="card">
  <h2>Create a key</h2>
  <form method="post" action="/keys" class="inline-form" novalidate>
    ${csrfField(viewer.csrf)}
    <div class="field grow">
      <label for="key-name">Name</label>
      <input id="key-name" name="name" maxlength="${NAME_CHARS}" placeholder="e.g. my-game-server" value="${view.name ?? ''}"${describedBy(errors, 'name')}>
      ${fieldError(errors, 'name')}
    </div>
    <button type="submit" class="button">Create key</button>
  </form>
</section>
<section class="card">
  <h2>Your keys</h2>
  ${
    keys.length === 0
      ? html`<p class="empty">No keys yet. Create one above to call the API.</p>`
      : html`<div class="table-wrap"><table class="keys">
    <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th></th></tr></thead>
    <tbody>${keys.map((key) => keyRow(viewer, key))}</tbody>
  </table></div>`
  }
</section>`,
  );
}

function keyRow(viewer: Viewer, key: ApiKey): Html {
  return html`<tr class="${key.revoked_at ? 'revoked' : ''}" data-key="${key.id}">
  <td data-label="Name">${key.name ?? 'Unnamed'}</td>
  <td data-label="Key"><code>${key.prefix}…</code></td>
  <td data-label="Created">${formatDate(key.created_at)}</td>
  <td data-label="Last used">${key.last_used_at ? formatDate(key.last_used_at) : 'Never'}</td>
  <td class="actions">${
    key.revoked_at
      ? html`<span class="badge badge-failed">Revoked</span>`
      : html`<details class="confirm">
      <summary class="button small danger-outline">Revoke</summary>
      <div class="confirm-box">
        <p>Revoke <strong>${key.name ?? key.prefix}</strong>? Apps using it stop working at once. This cannot be undone.</p>
        <form method="post" action="/keys/${key.id}/revoke">${csrfField(viewer.csrf)}<button type="submit" class="button small danger">Yes, revoke this key</button></form>
      </div>
    </details>`
  }</td>
</tr>`;
}

export function showKeys(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    sendHtml(ctx, await keysPage(deps, viewer, { revoked: ctx.query.revoked === '1' }));
  };
}

export function createKey(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const form = await readCheckedForm(ctx, deps, viewer);
    const name = (form.get('name') ?? '').trim();
    const problem =
      name === ''
        ? 'Give the key a name, so you know later where it is used.'
        : [...name].length > NAME_CHARS
          ? `Keep the name to ${NAME_CHARS} characters.`
          : CONTROL.test(name)
            ? 'The name cannot contain control characters.'
            : undefined;
    if (problem)
      return sendHtml(
        ctx,
        await keysPage(deps, viewer, { name: name.slice(0, NAME_CHARS), errors: { name: problem } }),
        400,
      );
    const created = await deps.services.accounts.createKey(viewer.account.id, name);
    // Answered directly (not redirected): the key exists in this response only and is never stored.
    sendHtml(ctx, await keysPage(deps, viewer, { created }), 201);
  };
}

export function revokeKey(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    await readCheckedForm(ctx, deps, viewer);
    // Another account's key id is answered like an unknown one.
    if (!(await deps.services.accounts.revokeKey(viewer.account.id, ctx.params.id ?? '')))
      return sendHtml(ctx, await keysPage(deps, viewer, { errors: {} }), 404);
    seeOther(ctx, '/keys?revoked=1');
  };
}
