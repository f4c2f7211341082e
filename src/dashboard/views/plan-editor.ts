/**
 * The playground's plan editor: the composition plan's sections as rows (kind, bars or seconds, energy,
 * instruments, lyrics), a timeline of the rows, and the variations count. The rows become the API's `sections`
 * (empty rows left out), so the plan goes through POST /v1/generate's own validation; its errors show above the
 * rows. Ten rows show at first; "More rows" (a submit that shows the form again, no script needed) adds five, up
 * to the API's 30. The editor is folded away until opened: rows are the user's alone, never filled by a finished
 * track unless asked ("Load this track's plan"), and Clear empties them.
 */
import { PLAN_KINDS } from '../../../engine/index.ts';
import { html, type Html } from '../html.ts';
import { describedBy, fieldError, type FieldErrors } from './forms.ts';

/** Rows shown at first: enough for a full song form. */
export const PLAN_ROWS = 10;
/** The API's limit on sections, and so on rows. */
export const MAX_PLAN_ROWS = 30;
const MORE_ROWS = 5;
const ROW_FIELDS = ['kind', 'bars', 'seconds', 'energy', 'instruments', 'lyrics'] as const;
/** The form's plan fields: every row the editor can show, the row count, the variations. */
export const PLAN_FIELDS = [
  ...Array.from({ length: MAX_PLAN_ROWS }, (_, i) => ROW_FIELDS.map((f) => `section_${f}_${i}`)).flat(),
  'plan_rows',
  'variations',
];
/**
 * The name of the "More rows" button: a form sent with it is shown again with more rows, not generated. (Enter in
 * a field still generates: the playground's form starts with an off-screen Generate button, the implicit default.)
 */
export const MORE_ROWS_FIELD = 'more_rows';
/** The name of the Clear button: the form is shown again with every row empty, the editor open. */
export const CLEAR_PLAN_FIELD = 'clear_plan';

type Values = Partial<Record<string, string>>;

const number = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** The values with every plan row emptied (the row count and variations are kept). */
export function withoutRows(values: Values): Values {
  const kept: Values = { ...values };
  for (let i = 0; i < MAX_PLAN_ROWS; i++) for (const field of ROW_FIELDS) kept[`section_${field}_${i}`] = '';
  return kept;
}

const hasRows = (values: Values): boolean =>
  Array.from({ length: MAX_PLAN_ROWS }, (_, i) => i).some((i) => values[`section_kind_${i}`]?.trim());

/** Rows to show: what the form says (at least every filled row), PLAN_ROWS at first, MAX_PLAN_ROWS at most. */
export function planRows(values: Values, more = false): number {
  const asked = Number(values.plan_rows);
  let filled = 0;
  for (let i = 0; i < MAX_PLAN_ROWS; i++) if (values[`section_kind_${i}`]?.trim()) filled = i + 1;
  const rows = Math.max(PLAN_ROWS, filled, Number.isInteger(asked) ? asked : 0) + (more ? MORE_ROWS : 0);
  return Math.min(MAX_PLAN_ROWS, rows);
}

/** The rows as the API's `sections` (undefined when every row is empty), and the variations count. */
export function planBody(values: Values): Record<string, unknown> {
  const sections: Record<string, unknown>[] = [];
  for (let i = 0; i < MAX_PLAN_ROWS; i++) {
    const kind = values[`section_kind_${i}`]?.trim();
    if (!kind) continue;
    const section: Record<string, unknown> = { kind };
    for (const field of ['bars', 'seconds', 'energy'] as const) {
      const text = values[`section_${field}_${i}`]?.trim();
      if (text) section[field] = number(text);
    }
    const instruments = values[`section_instruments_${i}`]
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (instruments && instruments.length > 0) section.instruments = instruments;
    // Browsers send a textarea's line breaks as CRLF; the API counts lines by LF.
    const lyrics = values[`section_lyrics_${i}`]?.replace(/\r\n?/g, '\n');
    if (lyrics?.trim()) section.lyrics = lyrics;
    sections.push(section);
  }
  const variations = values.variations?.trim();
  return {
    ...(sections.length > 0 ? { sections } : {}),
    ...(variations && variations !== '1' ? { variations: number(variations) } : {}),
  };
}

interface RowSource {
  kind: string;
  bars?: number | undefined;
  seconds?: number | undefined;
  energy?: number | undefined;
  instruments?: string[] | undefined;
  lyrics?: string | undefined;
}

/** A played plan (GET's `plan`) or an asked one as row values, so a generation's form can be edited and sent again. */
export function planValues(plan: readonly RowSource[] | undefined): Values {
  const values: Values = {};
  const rows = (plan ?? []).slice(0, MAX_PLAN_ROWS);
  rows.forEach((s, i) => {
    values[`section_kind_${i}`] = s.kind;
    values[`section_bars_${i}`] = s.bars === undefined ? '' : String(s.bars);
    values[`section_seconds_${i}`] = s.seconds === undefined ? '' : String(s.seconds);
    values[`section_energy_${i}`] = s.energy === undefined ? '' : String(s.energy);
    values[`section_instruments_${i}`] = s.instruments?.join(', ') ?? '';
    values[`section_lyrics_${i}`] = s.lyrics ?? '';
  });
  if (rows.length > PLAN_ROWS) values.plan_rows = String(rows.length);
  return values;
}

export interface PlanEditorOptions {
  /** "More rows" was pressed: five more rows, the editor open. */
  more?: boolean;
  /** Shown open although no row is filled (the user opened it: Clear, or a track's plan asked for). */
  open?: boolean;
  /** Where the shown track's plan can be loaded into the rows from; absent when no track with a plan is shown. */
  trackPlanHref?: string | undefined;
}

export function planEditor(values: Values, errors: FieldErrors, options: PlanEditorOptions = {}): Html {
  const count = planRows(values, options.more);
  const open = options.open || options.more || hasRows(values) || errors.sections !== undefined;
  const rows = Array.from({ length: count }, (_, i) => i);
  const cell = (i: number, field: string) => values[`section_${field}_${i}`] ?? '';
  return html`<details class="plan-editor" id="plan-editor"${open ? html` open` : ''}>
      <summary>Composition plan <span class="muted">(optional: the sections in order, each its bars or seconds, energy and instruments)</span></summary>
      <p class="hint">Empty rows are left out; a row's bars or seconds set its length.${options.trackPlanHref ? html` <a href="${options.trackPlanHref}">Load this track's plan</a> to edit it.` : ''}</p>
      ${fieldError(errors, 'sections')}
      <input type="hidden" name="plan_rows" value="${String(count)}">
      <div class="table-wrap">
      <table class="plan-rows"${describedBy(errors, 'sections')}>
        <thead><tr><th>#</th><th>Kind</th><th>Bars</th><th>or seconds</th><th>Energy 0–1</th><th>Instruments (comma-separated)</th><th>Lyrics (sung tracks)</th></tr></thead>
        <tbody>
        ${rows.map(
          (i) => html`<tr>
          <td>${String(i + 1)}</td>
          <td><select name="section_kind_${String(i)}" aria-label="Section ${String(i + 1)} kind"><option value="">—</option>${PLAN_KINDS.map((k) => html`<option value="${k}"${values[`section_kind_${i}`] === k ? html` selected` : ''}>${k}</option>`)}</select></td>
          <td><input name="section_bars_${String(i)}" aria-label="Section ${String(i + 1)} bars" inputmode="numeric" size="4" value="${cell(i, 'bars')}"></td>
          <td><input name="section_seconds_${String(i)}" aria-label="Section ${String(i + 1)} seconds" inputmode="decimal" size="4" value="${cell(i, 'seconds')}"></td>
          <td><input name="section_energy_${String(i)}" aria-label="Section ${String(i + 1)} energy" inputmode="decimal" size="4" value="${cell(i, 'energy')}"></td>
          <td><input name="section_instruments_${String(i)}" aria-label="Section ${String(i + 1)} instruments" placeholder="all its usual parts" value="${cell(i, 'instruments')}"></td>
          <td><textarea name="section_lyrics_${String(i)}" aria-label="Section ${String(i + 1)} lyrics" rows="1" placeholder="one line per line">${cell(i, 'lyrics')}</textarea></td>
        </tr>`,
        )}
        </tbody>
      </table>
      </div>
      <p>${count < MAX_PLAN_ROWS ? html`<button type="submit" name="${MORE_ROWS_FIELD}" value="1" class="button small secondary" formnovalidate>More rows</button> ` : ''}<button type="submit" name="${CLEAR_PLAN_FIELD}" value="1" class="button small secondary" formnovalidate>Clear</button> <span class="muted small">${String(count)} of ${String(MAX_PLAN_ROWS)} sections</span></p>
      ${timeline(blocksOf(values, count))}
    </details>`;
}

/** How many tracks one request makes: the same request with different seeds. */
/** `lockedFor`: the plans that include variations, when the account's does not (the select is then disabled). */
export function variationsField(values: Values, errors: FieldErrors, lockedFor?: string): Html {
  const locked = lockedFor !== undefined;
  return html`<div class="field">
        <label for="variations">Variations <span class="muted">(${locked ? `${lockedFor} only` : 'each one counts'})</span></label>
        <select id="variations" name="variations"${describedBy(errors, 'variations')}${locked ? html` disabled` : ''}>
          ${['1', '2', '3', '4'].map((n) => html`<option value="${n}"${(values.variations || '1') === n ? html` selected` : ''}>${n}</option>`)}
        </select>
        ${fieldError(errors, 'variations')}
      </div>`;
}

interface Block {
  kind: string;
  length: number;
}

/**
 * The filled rows' lengths, in one unit: seconds when each row's can be known (its seconds, or its bars at the
 * form's bpm and meter), else bars when every row has bars; none when the rows mix units the form cannot convert.
 */
function blocksOf(values: Values, count: number): { blocks: Block[]; unit: 'seconds' | 'bars' } | null {
  const bpm = Number(values.bpm);
  const [beats, unit] = (values.time_signature || '4/4').split('/').map(Number) as [number, number];
  // The bpm counts the pulse: dotted quarters in 6/8 and 12/8, so a bar of n eighths is n/3 beats of it.
  const pulses = unit === 8 && beats % 3 === 0 ? beats / 3 : beats;
  const barSeconds = bpm > 0 ? (pulses * 60) / bpm : null;
  const rows = Array.from({ length: count }, (_, i) => i).flatMap((i) => {
    const kind = values[`section_kind_${i}`];
    if (!kind) return [];
    const bars = Number(values[`section_bars_${i}`]) || 0;
    const seconds = Number(values[`section_seconds_${i}`]) || (barSeconds !== null && bars > 0 ? bars * barSeconds : 0);
    return [{ kind, bars, seconds }];
  });
  if (rows.length === 0) return null;
  if (rows.every((row) => row.seconds > 0))
    return {
      unit: 'seconds',
      blocks: rows.map(({ kind, seconds }) => ({ kind, length: Math.round(seconds * 10) / 10 })),
    };
  if (rows.every((row) => row.bars > 0))
    return { unit: 'bars', blocks: rows.map(({ kind, bars }) => ({ kind, length: bars })) };
  return null;
}

/** The plan as blocks along one line, each as wide as its length (SVG: the dashboard's CSP allows no inline styles). */
function timeline(plan: { blocks: Block[]; unit: 'seconds' | 'bars' } | null): Html {
  if (!plan) return html``;
  const total = plan.blocks.reduce((sum, b) => sum + b.length, 0);
  const label = (b: Block) => `${b.kind} ${String(b.length)} ${plan.unit === 'seconds' ? 's' : 'bars'}`;
  let x = 0;
  return html`<svg class="plan-timeline" viewBox="0 0 ${String(total)} 1" preserveAspectRatio="none" role="img" aria-label="Timeline: ${plan.blocks.map(label).join(', ')}${plan.unit === 'seconds' ? `, ${String(Math.round(total * 10) / 10)} s in all` : ''}">
    ${plan.blocks.map((b, i) => {
      const block = html`<rect class="plan-block plan-block-${String(i % 2)}" x="${String(x)}" y="0" width="${String(b.length)}" height="1"><title>${label(b)}</title></rect>`;
      x += b.length;
      return block;
    })}
  </svg>`;
}
