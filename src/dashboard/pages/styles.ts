/**
 * Styles: the account's own styles, and a form that makes one from a built-in style (Enterprise's custom styles).
 * The form is read into POST /v1/styles' body and goes through the API's own schema and checks, so the refusals
 * and their sentences are the API's, shown next to the field at fault. Other plans see what Enterprise would add.
 */
import { METERS, STYLE_ROLES, type StyleInfo } from '../../../engine/index.ts';
import type { CustomStyleRecord } from '../../domain/custom-styles.ts';
import { PLAN_LABELS } from '../../domain/plan-label.ts';
import { limitsFor, plansIncluding } from '../../domain/plans.ts';
import { describeError } from '../../http/error-handler.ts';
import type { AppContext } from '../../http/types.ts';
import { parseStyleRequest } from '../../requests/style-request.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { readCheckedForm, seeOther, sendHtml, type Viewer } from '../http.ts';
import { csrfField, describedBy, fieldError, formError, type FieldErrors } from '../views/forms.ts';
import { page } from '../views/layout.ts';

type ParamContext = AppContext & { params: Record<string, string> };
type Values = Partial<Record<string, string>>;

/** The form's text fields, in POST /v1/styles' names; instruments are `instrument-<role>`. */
const TEXT_FIELDS = ['name', 'from', 'description', 'key', 'time_signature', 'groove', 'swing', 'reverb', 'vocals'];
const NUMBER_FIELDS = ['swing', 'reverb'];

function describeChanges(style: CustomStyleRecord): string {
  const c = style.changes;
  const parts: string[] = [];
  if (c.bpm) parts.push(`${c.bpm.min}–${c.bpm.max} bpm`);
  if (c.key) parts.push(c.key);
  if (c.modes) parts.push(c.modes.join(' or '));
  if (c.time_signature) parts.push(c.time_signature);
  for (const [role, instrument] of Object.entries(c.instruments ?? {}))
    parts.push(instrument === null ? `no ${role}` : `${role}: ${instrument}`);
  if (c.groove) parts.push(`${c.groove}'s groove`);
  if (c.swing !== undefined) parts.push(`swing ${c.swing}`);
  if (c.reverb !== undefined) parts.push(`reverb ${c.reverb}`);
  if (c.vocals !== undefined) parts.push(c.vocals ? 'sings' : 'instrumental');
  return parts.join(', ') || 'as its base';
}

function styleRow(viewer: Viewer, style: CustomStyleRecord): Html {
  return html`<tr data-style="${style.name}">
  <td data-label="Name"><strong>${style.name}</strong><br><span class="muted small">${style.description}</span></td>
  <td data-label="From">${style.base}</td>
  <td data-label="Changes">${describeChanges(style)}</td>
  <td class="actions">
    <a class="button small secondary" href="/playground?style=${style.name}">Use</a>
    <details class="confirm">
      <summary class="button small danger-outline">Delete</summary>
      <div class="confirm-box">
        <p>Delete <strong>${style.name}</strong>? Tracks made with it keep it.</p>
        <form method="post" action="/styles/${style.name}/delete">${csrfField(viewer.csrf)}<button type="submit" class="button small danger">Yes, delete this style</button></form>
      </div>
    </details>
  </td>
</tr>`;
}

const selected = (values: Values, field: string, value: string): Html =>
  values[field] === value ? html` selected` : html``;

function textField(
  values: Values,
  errors: FieldErrors,
  field: string,
  label: string,
  extra: { placeholder?: string; type?: string; step?: string; min?: string; max?: string } = {},
): Html {
  const attributes = [
    extra.placeholder ? html` placeholder="${extra.placeholder}"` : html``,
    extra.type ? html` type="${extra.type}"` : html``,
    extra.step ? html` step="${extra.step}"` : html``,
    extra.min ? html` min="${extra.min}"` : html``,
    extra.max ? html` max="${extra.max}"` : html``,
  ];
  return html`<div class="field">
  <label for="style-${field}">${label}</label>
  <input id="style-${field}" name="${field}" value="${values[field] ?? ''}"${attributes}${describedBy(errors, field)}>
  ${fieldError(errors, field)}
</div>`;
}

function makeForm(viewer: Viewer, builtIn: StyleInfo[], own: CustomStyleRecord[], values: Values, errors: FieldErrors) {
  const from = values.from ?? 'lofi';
  return html`<form method="post" action="/styles" class="stack" novalidate>
  ${csrfField(viewer.csrf)}
  ${formError(errors)}
  <div class="style-grid">
    ${textField(values, errors, 'name', 'Name', { placeholder: 'e.g. night-flute' })}
    <div class="field">
      <label for="style-from">Start from</label>
      <select id="style-from" name="from"${describedBy(errors, 'from')}>
        ${builtIn.map((s) => html`<option value="${s.name}"${from === s.name ? html` selected` : ''}>${s.name}</option>`)}
        ${own.map((s) => html`<option value="${s.name}"${from === s.name ? html` selected` : ''}>${s.name} (yours)</option>`)}
      </select>
      ${fieldError(errors, 'from')}
    </div>
  </div>
  ${textField(values, errors, 'description', 'Description (optional)', { placeholder: 'One line for the style list' })}
  <fieldset class="style-set">
    <legend>Tempo, key and meter <span class="muted">(empty: as the style it starts from)</span></legend>
    <div class="style-grid">
      ${textField(values, errors, 'bpm_min', 'Slowest bpm', { type: 'number', min: '40', max: '220' })}
      ${textField(values, errors, 'bpm_max', 'Fastest bpm', { type: 'number', min: '40', max: '220' })}
      ${textField(values, errors, 'key', 'Key it prefers', { placeholder: 'e.g. F# minor' })}
      <div class="field">
        <label for="style-time_signature">Meter</label>
        <select id="style-time_signature" name="time_signature"${describedBy(errors, 'time_signature')}>
          <option value="">The style's own</option>
          ${METERS.map((m) => html`<option value="${m}"${selected(values, 'time_signature', m)}>${m}</option>`)}
        </select>
        ${fieldError(errors, 'time_signature')}
      </div>
    </div>
  </fieldset>
  <fieldset class="style-set">
    <legend>Instruments <span class="muted">(a name such as "flute" or "acoustic guitar"; "none" leaves the role out)</span></legend>
    ${fieldError(errors, 'instruments')}
    <div class="style-grid">
      ${STYLE_ROLES.map((role) => textField(values, errors, `instruments.${role}`, role))}
    </div>
  </fieldset>
  <fieldset class="style-set">
    <legend>Feel</legend>
    <div class="style-grid">
      <div class="field">
        <label for="style-groove">Groove</label>
        <select id="style-groove" name="groove"${describedBy(errors, 'groove')}>
          <option value="">The style's own</option>
          ${builtIn.map((s) => html`<option value="${s.name}"${selected(values, 'groove', s.name)}>${s.name}'s</option>`)}
        </select>
        ${fieldError(errors, 'groove')}
      </div>
      <div class="field">
        <label for="style-vocals">Vocals</label>
        <select id="style-vocals" name="vocals"${describedBy(errors, 'vocals')}>
          <option value="">As the style does</option>
          <option value="true"${selected(values, 'vocals', 'true')}>Sings unless told not to</option>
          <option value="false"${selected(values, 'vocals', 'false')}>Instrumental unless asked for a song</option>
        </select>
        ${fieldError(errors, 'vocals')}
      </div>
      ${textField(values, errors, 'swing', 'Swing (0–1)', { type: 'number', step: '0.05', min: '0', max: '1' })}
      ${textField(values, errors, 'reverb', 'Reverb (0–1)', { type: 'number', step: '0.05', min: '0', max: '1' })}
    </div>
  </fieldset>
  <p><button type="submit" class="button">Make style</button></p>
</form>`;
}

async function stylesPage(
  deps: DashboardDeps,
  viewer: Viewer,
  view: { values?: Values; errors?: FieldErrors; done?: string },
): Promise<Html> {
  const own = await deps.services.styles.list(viewer.account);
  const builtIn = deps.services.engine.listStyles();
  const allowed = limitsFor(viewer.account).custom_styles;
  const plans = plansIncluding((plan) => plan.custom_styles).map((name) => PLAN_LABELS[name]);
  return page(
    viewer,
    'styles',
    'Styles',
    html`${view.done ? html`<div class="alert alert-ok" role="status">${view.done}</div>` : ''}
<section class="card">
  <h2>Your styles</h2>
  ${
    own.length === 0
      ? html`<p class="empty">No styles of your own yet.${allowed ? ' Make one below from a built-in style.' : ''}</p>`
      : html`<div class="table-wrap"><table class="styles">
    <thead><tr><th>Style</th><th>From</th><th>Changes</th><th></th></tr></thead>
    <tbody>${own.map((style) => styleRow(viewer, style))}</tbody>
  </table></div>`
  }
</section>
<section class="card">
  <h2>Make a style</h2>
  ${
    allowed
      ? html`<p class="muted small">A built-in style with your changes, for your account alone: use it as the playground's style or as <code>"style"</code> in <code>POST /v1/generate</code>.</p>
  ${makeForm(viewer, builtIn, own, view.values ?? {}, view.errors ?? {})}`
      : html`<p>Custom styles are not part of the ${PLAN_LABELS[viewer.account.plan]} plan: ${plans.join(' and ')} accounts make styles of their own from the ${builtIn.length} built-in ones (tempo range, key, meter, instruments, groove, swing, reverb, vocals).</p>`
  }
</section>`,
  );
}

/** POST /v1/styles' body from the form: empty fields are left out, numbers and booleans read as such. */
function bodyOf(values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const value = values[field];
    if (value === undefined || value === '') continue;
    if (NUMBER_FIELDS.includes(field)) body[field] = Number(value);
    else if (field === 'vocals') body[field] = value === 'true';
    else body[field] = value;
  }
  if (values.bpm_min || values.bpm_max) body.bpm = { min: Number(values.bpm_min), max: Number(values.bpm_max) };
  const instruments: Record<string, string | null> = {};
  for (const role of STYLE_ROLES) {
    const value = values[`instruments.${role}`];
    if (value) instruments[role] = value.toLowerCase() === 'none' ? null : value;
  }
  if (Object.keys(instruments).length > 0) body.instruments = instruments;
  return body;
}

/** Where an API refusal's param shows on the form ("bpm.min" and "bpm" by the tempo fields). */
function fieldOf(param: string | undefined): string {
  if (param === undefined) return '';
  if (param.startsWith('bpm')) return param === 'bpm.max' ? 'bpm_max' : 'bpm_min';
  if (param.startsWith('modes')) return 'key';
  return param;
}

export function showStyles(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const done = typeof ctx.query.made === 'string' ? `Made the style ${ctx.query.made}.` : undefined;
    const deleted = typeof ctx.query.deleted === 'string' ? `Deleted the style ${ctx.query.deleted}.` : undefined;
    sendHtml(ctx, await stylesPage(deps, viewer, { done: done ?? deleted }));
  };
}

export function makeStyle(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const form = await readCheckedForm(ctx, deps, viewer);
    const values: Values = {};
    for (const [field, value] of form.entries()) if (field !== '_csrf') values[field] = value.trim();
    try {
      // The API's own reader and checks: the same refusals, with the same reasons, as POST /v1/styles.
      const style = await deps.services.styles.create(viewer.account, parseStyleRequest(bodyOf(values)));
      seeOther(ctx, `/styles?made=${encodeURIComponent(style.name)}`);
    } catch (error) {
      const described = describeError(error);
      if (described.status >= 500) throw error;
      const errors: FieldErrors = { [fieldOf(described.param)]: described.message };
      sendHtml(ctx, await stylesPage(deps, viewer, { values, errors }), described.status);
    }
  };
}

export function deleteStyle(deps: DashboardDeps) {
  return async (ctx: ParamContext, viewer: Viewer) => {
    await readCheckedForm(ctx, deps, viewer);
    const name = ctx.params.name ?? '';
    await deps.services.styles.delete(viewer.account, name);
    seeOther(ctx, `/styles?deleted=${encodeURIComponent(name)}`);
  };
}
