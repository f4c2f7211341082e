/**
 * On a track's page: where it was made from (extend, redo a section), and the forms that make a new track from it:
 * "Extend" (seconds of new material) and "Redo a section" (one row of its plan, with what to change). They post to
 * the dashboard's own routes, which call the API's derive path, so the rules and the sentences are the API's.
 */
import type { GenerationObject } from '../../domain/generations/present.ts';
import { html, type Html } from '../html.ts';
import { csrfField } from './forms.ts';

/** What the forms were filled with, to show them again beside an error. */
export type FormValues = Partial<Record<string, string>>;

/** "Extended from …" / "Section 2 redone from …", when the track was made from another. */
export function sourceLine(g: GenerationObject): Html {
  if (!g.source) return html``;
  const link = html`<a href="/generations/${g.source.id}">${g.source.id}</a>`;
  return g.source.operation === 'extend'
    ? html`<p class="small muted source-line">Extended from ${link}</p>`
    : html`<p class="small muted source-line">Section ${String((g.source.section ?? 0) + 1)} redone from ${link}</p>`;
}

const seconds = (value: number): string => `${Math.round(value * 10) / 10} s`;

/** The two forms, on a completed track that reports its plan (older tracks and loops cannot be spliced). */
export function deriveForms(
  g: GenerationObject,
  csrf: string,
  errors: { extend?: string; remix?: string } = {},
  values: FormValues = {},
): Html {
  const plan = g.plan;
  const last = plan?.at(-1);
  if (g.status !== 'completed' || !plan || !last) return html``;
  const length = last.end;
  const room = Math.max(0, Math.floor(180 - length));
  return html`<section class="card derive" aria-labelledby="derive-title">
  <h2 id="derive-title">Make more of this track</h2>
  <p class="small muted">Each makes a new track (one generation of your quota). Everything you do not change is this track's audio, sample for sample.</p>
  <form method="post" action="/generations/${g.id}/extend" class="derive-form">
    ${csrfField(csrf)}
    <h3>Extend</h3>
    ${errors.extend ? html`<div class="alert alert-error" role="alert" id="extend-error">${errors.extend}</div>` : ''}
    <label for="extend-seconds">Seconds of new material</label>
    <input id="extend-seconds" name="seconds" type="number" min="1" max="${String(Math.max(1, room))}" step="1" required value="${values.seconds ?? '20'}"${errors.extend ? html` aria-invalid="true" aria-describedby="extend-error"` : ''}>
    <p class="hint">This track is ${seconds(length)}: it is kept up to where its ending starts, then new bars and a new ending follow (up to ${String(room)} s more; tracks are at most 180 s).</p>
    <button type="submit" class="button small">Extend</button>
  </form>
  <form method="post" action="/generations/${g.id}/remix" class="derive-form">
    ${csrfField(csrf)}
    <h3>Redo a section</h3>
    ${errors.remix ? html`<div class="alert alert-error" role="alert" id="remix-error">${errors.remix}</div>` : ''}
    <label for="remix-section">Section</label>
    <select id="remix-section" name="section"${errors.remix ? html` aria-invalid="true" aria-describedby="remix-error"` : ''}>
      ${plan.map((s, i) => html`<option value="${String(i)}"${values.section === String(i) ? html` selected` : ''}>${String(i + 1)}. ${s.kind} (${seconds(s.start)}–${seconds(s.end)})</option>`)}
    </select>
    <label for="remix-energy">Energy 0–1 <span class="muted">(optional)</span></label>
    <input id="remix-energy" name="energy" type="number" min="0" max="1" step="0.05" value="${values.energy ?? ''}">
    <label for="remix-instruments">Instruments <span class="muted">(optional, comma-separated: drums, bass, piano …)</span></label>
    <input id="remix-instruments" name="instruments" type="text" maxlength="200" value="${values.instruments ?? ''}">
    ${
      g.instrumental
        ? ''
        : html`<label for="remix-lyrics">New lyrics <span class="muted">(optional, one line per line)</span></label>
    <textarea id="remix-lyrics" name="lyrics" rows="3" maxlength="3000">${values.lyrics ?? ''}</textarea>`
    }
    <label for="remix-seed">Seed <span class="muted">(optional; with nothing else changed, a new one is drawn and the section composed anew)</span></label>
    <input id="remix-seed" name="seed" type="number" min="0" max="2147483647" step="1" value="${values.seed ?? ''}">
    <button type="submit" class="button small">Redo section</button>
  </form>
</section>`;
}

/** The form's fields as the API's body: numbers where numbers are meant, empty fields left out. */
export function deriveBody(
  form: URLSearchParams,
  operation: 'extend' | 'remix',
): { body: Record<string, unknown>; values: FormValues } {
  const names = operation === 'extend' ? ['seconds'] : ['section', 'energy', 'instruments', 'lyrics', 'seed'];
  const values: FormValues = {};
  const body: Record<string, unknown> = {};
  for (const name of names) {
    const raw = (form.get(name) ?? '').trim();
    values[name] = raw;
    if (raw === '') continue;
    if (name === 'instruments')
      body[name] = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    else if (name === 'lyrics') body[name] = raw;
    else body[name] = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  return { body, values };
}
