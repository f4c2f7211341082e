/**
 * The playground: a form that creates a generation through the same function as POST /v1/generate
 * (same validation, quota and rate limit), then shows its progress and plays it when done.
 */
import { refuseWhenSpent, takeAccountRequest } from '../../http/rate-limit.ts';
import type { AppContext } from '../../http/types.ts';
import { createGenerationFor } from '../../requests/create-generation.ts';
import { LIMITS } from '../../requests/generate-request.ts';
import { MAX_BPM, METERS, MIN_BPM } from '../../../engine/index.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { readCheckedForm, seeOther, sendHtml, type Viewer } from '../http.ts';
import { AUDIO_FIELDS, audioOptions } from '../views/audio-options.ts';
import {
  CLEAR_PLAN_FIELD,
  MORE_ROWS_FIELD,
  PLAN_FIELDS,
  planBody,
  planEditor,
  planValues,
  type PlanEditorOptions,
  variationsField,
  withoutRows,
} from '../views/plan-editor.ts';
import { csrfField, describedBy, fieldError, formError, type FieldErrors } from '../views/forms.ts';
import { generationCard } from '../views/generation-card.ts';
import { page } from '../views/layout.ts';
import { FULL_ACCESS, disabledIf, lockedNote, planMarks, type PlanMarks } from '../views/plan-marks.ts';
import { QUALITY } from '../../domain/plans.ts';
import { present } from './generations.ts';

const FIELDS = [
  'prompt',
  'duration',
  'style',
  'instrumental',
  'seed',
  'lyrics',
  'loop',
  'stems',
  ...AUDIO_FIELDS,
  'bpm',
  'key',
  'time_signature',
] as const;
type Values = Partial<Record<(typeof FIELDS)[number], string>> & Partial<Record<string, string>>;

const EXAMPLES = [
  'a calm lofi beat with soft piano and rain',
  'upbeat synthwave for a night drive, 110 bpm',
  'epic orchestral trailer music in D minor',
  'a warm pop song about summer nights, female vocals',
];
const LYRICS_EXAMPLE = '[Verse]\nCity lights are fading slow\n[Chorus]\nStay with me tonight';

async function playgroundPage(
  deps: DashboardDeps,
  viewer: Viewer,
  values: Values,
  errors: FieldErrors,
  current: Html | null,
  plan: PlanEditorOptions = {},
): Promise<Html> {
  // The built-in styles, then the account's own (POST /v1/styles, the Styles page).
  const styles = await deps.services.styles.names(viewer.account);
  const builtIn = new Set(deps.services.engine.listStyles().map((s) => s.name));
  const marks = planMarks(viewer.account);
  const customPlans = marks.includedIn((p) => p.custom_styles);
  return page(
    viewer,
    'playground',
    'Playground',
    html`<div class="playground${current ? ' has-result' : ''}">
${current ? html`<section class="result">${current}</section>` : ''}
<section class="card playground-form">
  <form method="post" action="/playground" class="stack" novalidate>
    ${csrfField(viewer.csrf)}
    <button type="submit" class="offscreen" tabindex="-1" aria-hidden="true">Generate</button>
    ${formError(errors)}
    <label for="prompt">Prompt</label>
    <textarea id="prompt" name="prompt" rows="3" maxlength="${LIMITS.promptChars}" required placeholder="${EXAMPLES[0]}"${describedBy(errors, 'prompt')}>${values.prompt ?? ''}</textarea>
    ${fieldError(errors, 'prompt')}
    <p class="hint">Describe a mood, genre, tempo, key or instruments. Try one:</p>
    <p class="chips">${EXAMPLES.map((e) => html`<button type="button" class="chip" data-fill="prompt">${e}</button>`)}</p>
    <div class="row">
      <div class="field">
        <label for="duration">Duration (seconds)</label>
        <input id="duration" name="duration" type="number" min="${LIMITS.minDuration}" max="${LIMITS.maxDuration}" step="1" value="${values.duration ?? String(LIMITS.minDuration)}"${describedBy(errors, 'duration')}>
        ${fieldError(errors, 'duration')}
      </div>
      <div class="field">
        <label for="style">Style</label>
        <select id="style" name="style"${describedBy(errors, 'style')}>
          <option value="">Infer from the prompt</option>
          ${styles.map((s) => {
            // An own style the plan no longer includes is shown, not offered.
            const locked = !builtIn.has(s.name) && !marks.customStyles;
            return html`<option value="${s.name}"${values.style === s.name && !locked ? html` selected` : ''}${disabledIf(locked)}>${s.name}${locked ? ` (${customPlans})` : ''}</option>`;
          })}
        </select>
        ${fieldError(errors, 'style')}
      </div>
      <div class="field">
        <label for="seed">Seed <span class="muted">(optional)</span></label>
        <input id="seed" name="seed" inputmode="numeric" placeholder="random" value="${values.seed ?? ''}"${describedBy(errors, 'seed')}>
        ${fieldError(errors, 'seed')}
      </div>
    </div>
    ${musicalRow(values, errors, marks)}
    <div class="row">${variationsField(values, errors, marks.fullAccess ? undefined : marks.includedIn(FULL_ACCESS))}</div>
    ${marks.fullAccess ? planEditor(values, errors, plan) : lockedNote('Composition plans', marks.includedIn(FULL_ACCESS))}
    <label class="check"><input type="checkbox" id="instrumental" name="instrumental" value="on" data-hides="lyrics-field"${values.instrumental === 'on' ? html` checked` : ''}> Instrumental (no vocals)</label>
    ${fieldError(errors, 'instrumental')}
    ${lyricsField(values, errors)}
    <label class="check"><input type="checkbox" id="loop" name="loop" value="on"${values.loop === 'on' ? html` checked` : ''}> Seamless loop (whole bars, no intro or ending)</label>
    <label class="check"><input type="checkbox" id="stems" name="stems" value="on"${values.stems === 'on' && marks.stems ? html` checked` : ''}${disabledIf(!marks.stems)}> Stems too (one WAV per part; takes longer)${marks.stems ? '' : html` <span class="muted small">(${marks.includedIn((p) => QUALITY[p.quality].stems)} only)</span>`}</label>
    ${audioOptions(values, errors, marks)}
    <div class="form-actions"><button type="submit" class="button">Generate</button> <span class="muted small">Uses one generation of this month's quota.</span></div>
  </form>
</section>
</div>`,
  );
}

/** Tempo, key and meter: optional, each winning over what the prompt says. */
function musicalRow(values: Values, errors: FieldErrors, marks: PlanMarks): Html {
  const locked = disabledIf(!marks.fullAccess);
  return html`${marks.fullAccess ? '' : lockedNote('BPM, key and time signature', marks.includedIn(FULL_ACCESS))}<div class="row">
      <div class="field">
        <label for="bpm">BPM <span class="muted">(optional)</span></label>
        <input id="bpm" name="bpm" type="number" min="${MIN_BPM}" max="${MAX_BPM}" step="1" placeholder="from the prompt" value="${values.bpm ?? ''}"${describedBy(errors, 'bpm')}${locked}>
        ${fieldError(errors, 'bpm')}
      </div>
      <div class="field">
        <label for="key">Key <span class="muted">(optional)</span></label>
        <input id="key" name="key" maxlength="40" placeholder="e.g. F# minor, D dorian" value="${values.key ?? ''}"${describedBy(errors, 'key')}${locked}>
        ${fieldError(errors, 'key')}
      </div>
      <div class="field">
        <label for="time_signature">Time signature</label>
        <select id="time_signature" name="time_signature"${describedBy(errors, 'time_signature')}${locked}>
          <option value="">From the style or prompt</option>
          ${METERS.map((m) => html`<option value="${m}"${values.time_signature === m ? html` selected` : ''}>${m}</option>`)}
        </select>
        ${fieldError(errors, 'time_signature')}
      </div>
    </div>`;
}

/**
 * Shown while "Instrumental" is unchecked (the page script toggles it); kept in view when it holds an error,
 * such as lyrics sent together with "Instrumental", so the sentence is never hidden.
 */
function lyricsField(values: Values, errors: FieldErrors): Html {
  const hidden = values.instrumental === 'on' && !errors.lyrics;
  return html`<div class="field lyrics-field" id="lyrics-field"${hidden ? html` hidden` : ''}>
      <label for="lyrics">Lyrics <span class="muted">(optional)</span></label>
      <textarea id="lyrics" name="lyrics" rows="6" maxlength="${LIMITS.lyricsChars}" placeholder="${LYRICS_EXAMPLE}"${describedBy(errors, 'lyrics')}>${values.lyrics ?? ''}</textarea>
      ${fieldError(errors, 'lyrics')}
      <p class="hint">One sung line per line; [Verse], [Chorus] or [Bridge] on a line of its own starts a section. Leave empty to have lyrics written when the prompt asks for a song.</p>
    </div>`;
}

/** Form fields as the JSON body the API would get: numbers as numbers, empty optional fields left out. */
export function bodyFromForm(values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = { prompt: values.prompt ?? '' };
  const number = (text: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);
  if (values.duration?.trim()) body.duration = number(values.duration);
  if (values.style?.trim()) body.style = values.style;
  if (values.seed?.trim()) body.seed = number(values.seed);
  if (values.bpm?.trim()) body.bpm = number(values.bpm);
  if (values.key?.trim()) body.key = values.key;
  if (values.time_signature?.trim()) body.time_signature = values.time_signature;
  body.instrumental = values.instrumental === 'on';
  if (values.loop === 'on') body.loop = true;
  if (values.stems === 'on') body.stems = true;
  // Browsers send a textarea's line breaks as CRLF; the API's lyrics (and their length limit) count LF.
  if (values.lyrics?.trim()) body.lyrics = values.lyrics.replace(/\r\n?/g, '\n');
  for (const field of AUDIO_FIELDS) if (values[field]?.trim()) body[field] = number(values[field]);
  const plan = planBody(values);
  // With a plan, the duration field is the length of rows without bars; with every row sized it would conflict.
  if (
    plan.sections &&
    (plan.sections as { bars?: unknown; seconds?: unknown }[]).every(
      (s) => s.bars !== undefined || s.seconds !== undefined,
    )
  )
    delete body.duration;
  return { ...body, ...plan };
}

export function showPlayground(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const id = typeof ctx.query.id === 'string' ? ctx.query.id : undefined;
    const generation = id === undefined ? undefined : await deps.services.generations.find(viewer.account.id, id);
    const presented = generation ? await present(deps, generation) : undefined;
    const trackPlan = (presented as { plan?: Parameters<typeof planValues>[0] } | undefined)?.plan ?? generation?.plan;
    const editPlan = ctx.query.plan === 'edit';
    const values: Values = generation
      ? {
          prompt: generation.prompt,
          duration: String(generation.duration),
          style: generation.style ?? '',
          instrumental: generation.instrumental ? 'on' : '',
          loop: generation.loop ? 'on' : '',
          stems: generation.stems ? 'on' : '',
          lyrics: generation.lyrics ?? '',
          // The defaults are the selects' empty choices.
          sample_rate: generation.encoding?.sample_rate === 48000 ? '48000' : '',
          bit_depth: generation.encoding?.bit_depth === 24 ? '24' : '',
          bitrate: generation.encoding?.bitrate ? String(generation.encoding.bitrate) : '',
          bpm: generation.music?.bpm === undefined ? '' : String(generation.music.bpm),
          key: generation.music?.key ?? '',
          time_signature: generation.music?.timeSignature ?? '',
          // The rows stay the user's: the plan played (or asked, while it renders) fills them only when asked for.
          ...(editPlan ? planValues(trackPlan) : {}),
        }
      : // "Use" on the Styles page: the playground with that style chosen.
        typeof ctx.query.style === 'string'
        ? { style: ctx.query.style }
        : {};
    sendHtml(
      ctx,
      await playgroundPage(
        deps,
        viewer,
        values,
        {},
        presented ? generationCard(presented, { csrf: viewer.csrf }) : null,
        {
          open: editPlan,
          trackPlanHref:
            generation && trackPlan?.length && !editPlan
              ? `/playground?id=${encodeURIComponent(generation.id)}&plan=edit#plan-editor`
              : undefined,
        },
      ),
    );
  };
}

export function generateFromPlayground(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const form = await readCheckedForm(ctx, deps, viewer);
    const values: Values = {};
    for (const field of [...FIELDS, ...PLAN_FIELDS]) values[field] = form.get(field) ?? '';
    // "More rows": the same form again with more plan rows, nothing generated.
    if (form.get(MORE_ROWS_FIELD) !== null) {
      sendHtml(ctx, await playgroundPage(deps, viewer, values, {}, null, { more: true }));
      return;
    }
    // "Clear": the same form with every plan row empty, the editor still open.
    if (form.get(CLEAR_PLAN_FIELD) !== null) {
      sendHtml(ctx, await playgroundPage(deps, viewer, withoutRows(values), {}, null, { open: true }));
      return;
    }
    try {
      refuseWhenSpent(await takeAccountRequest(deps.services, viewer.account));
      const { generation } = await createGenerationFor(deps.services, viewer.account, {
        body: bodyFromForm(values),
        requestId: ctx.state.requestId,
      });
      seeOther(ctx, `/playground?id=${encodeURIComponent(generation.id)}`);
    } catch (error) {
      // The API's one error table decides what is the caller's fault; those become sentences on the form.
      const described = deps.describeError(error);
      if (described.status >= 500) throw error;
      // A plan's errors name sections[i].field: they show above the rows.
      const param = described.param?.startsWith('sections') ? 'sections' : described.param;
      const field = param && ([...FIELDS, 'sections', 'variations'] as readonly string[]).includes(param) ? param : '';
      sendHtml(ctx, await playgroundPage(deps, viewer, values, { [field]: described.message }, null), described.status);
    }
  };
}
