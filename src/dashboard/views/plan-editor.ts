/**
 * The playground's plan editor: the composition plan's sections as rows (kind, bars, energy, instruments), a
 * timeline drawn from the rows' bars, and the variations count. The rows become the API's `sections` (empty rows
 * left out), so the plan goes through POST /v1/generate's own validation; its errors show above the rows.
 */
import { PLAN_KINDS } from '../../../engine/index.ts';
import { html, type Html } from '../html.ts';
import { describedBy, fieldError, type FieldErrors } from './forms.ts';

/** Rows shown: enough for a full song form; the API itself takes up to 30 sections. */
export const PLAN_ROWS = 10;
const ROW_FIELDS = ['kind', 'bars', 'energy', 'instruments'] as const;
export const PLAN_FIELDS = [...Array.from({ length: PLAN_ROWS }, (_, i) => ROW_FIELDS.map((f) => `section_${f}_${i}`)).flat(), 'variations'];

type Values = Partial<Record<string, string>>;

const number = (text: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** The rows as the API's `sections` (undefined when every row is empty), and the variations count. */
export function planBody(values: Values): Record<string, unknown> {
  const sections: Record<string, unknown>[] = [];
  for (let i = 0; i < PLAN_ROWS; i++) {
    const kind = values[`section_kind_${i}`]?.trim();
    if (!kind) continue;
    const section: Record<string, unknown> = { kind };
    const bars = values[`section_bars_${i}`]?.trim();
    if (bars) section['bars'] = number(bars);
    const energy = values[`section_energy_${i}`]?.trim();
    if (energy) section['energy'] = number(energy);
    const instruments = values[`section_instruments_${i}`]?.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (instruments && instruments.length > 0) section['instruments'] = instruments;
    sections.push(section);
  }
  const variations = values['variations']?.trim();
  return { ...(sections.length > 0 ? { sections } : {}), ...(variations && variations !== '1' ? { variations: number(variations) } : {}) };
}

/** A played plan (GET's `plan`) as row values, so a generation's form can be edited and sent again. */
export function planValues(plan: readonly { kind: string; bars?: number | undefined; energy?: number | undefined; instruments?: string[] | undefined }[] | undefined): Values {
  const values: Values = {};
  (plan ?? []).slice(0, PLAN_ROWS).forEach((s, i) => {
    values[`section_kind_${i}`] = s.kind;
    values[`section_bars_${i}`] = s.bars === undefined ? '' : String(s.bars);
    values[`section_energy_${i}`] = s.energy === undefined ? '' : String(s.energy);
    values[`section_instruments_${i}`] = s.instruments?.join(', ') ?? '';
  });
  return values;
}

export function planEditor(values: Values, errors: FieldErrors): Html {
  const rows = Array.from({ length: PLAN_ROWS }, (_, i) => i);
  const bars = rows.map((i) => Number(values[`section_bars_${i}`]) || 0);
  const total = bars.reduce((a, b) => a + b, 0);
  return html`<fieldset class="plan-editor">
      <legend>Composition plan <span class="muted">(optional: empty rows are left out; bars set the length)</span></legend>
      ${fieldError(errors, 'sections')}
      <table class="plan-rows"${describedBy(errors, 'sections')}>
        <thead><tr><th>#</th><th>Kind</th><th>Bars</th><th>Energy 0–1</th><th>Instruments (comma-separated)</th></tr></thead>
        <tbody>
        ${rows.map((i) => html`<tr>
          <td>${String(i + 1)}</td>
          <td><select name="section_kind_${String(i)}" aria-label="Section ${String(i + 1)} kind"><option value="">—</option>${PLAN_KINDS.map((k) => html`<option value="${k}"${values[`section_kind_${i}`] === k ? html` selected` : ''}>${k}</option>`)}</select></td>
          <td><input name="section_bars_${String(i)}" aria-label="Section ${String(i + 1)} bars" inputmode="numeric" size="4" value="${values[`section_bars_${i}`] ?? ''}"></td>
          <td><input name="section_energy_${String(i)}" aria-label="Section ${String(i + 1)} energy" inputmode="decimal" size="4" value="${values[`section_energy_${i}`] ?? ''}"></td>
          <td><input name="section_instruments_${String(i)}" aria-label="Section ${String(i + 1)} instruments" placeholder="all its usual parts" value="${values[`section_instruments_${i}`] ?? ''}"></td>
        </tr>`)}
        </tbody>
      </table>
      ${total > 0 ? timeline(rows.filter((i) => bars[i]! > 0 && values[`section_kind_${i}`]).map((i) => ({ kind: values[`section_kind_${i}`]!, bars: bars[i]! })), total) : ''}
      <label for="variations">Variations</label>
      <select id="variations" name="variations"${describedBy(errors, 'variations')}>
        ${['1', '2', '3', '4'].map((n) => html`<option value="${n}"${(values['variations'] || '1') === n ? html` selected` : ''}>${n}</option>`)}
      </select>
      ${fieldError(errors, 'variations')}
      <p class="hint">Variations: the same request with different seeds, each counting against the quota.</p>
    </fieldset>`;
}

/** The plan as blocks along one line, each as wide as its bars (SVG: the dashboard's CSP allows no inline styles). */
function timeline(blocks: { kind: string; bars: number }[], total: number): Html {
  let x = 0;
  return html`<svg class="plan-timeline" viewBox="0 0 ${String(total)} 1" preserveAspectRatio="none" role="img" aria-label="Timeline: ${blocks.map((b) => `${b.kind} ${b.bars} bars`).join(', ')}">
    ${blocks.map((b, i) => {
      const block = html`<rect class="plan-block plan-block-${String(i % 2)}" x="${String(x)}" y="0" width="${String(b.bars)}" height="1"><title>${b.kind}, ${String(b.bars)} bars</title></rect>`;
      x += b.bars;
      return block;
    })}
  </svg>`;
}
