/** The account's generations, newest first, with the API's status filter and pagination; live progress; waveforms. */
import { ResourceNotFoundError } from '../../domain/errors.ts';
import { refuseWhenSpent, takeAccountRequest } from '../../http/rate-limit.ts';
import { deriveGenerationFor } from '../../requests/derive-generation.ts';
import { playedOf } from '../../domain/generations/derive.ts';
import { z } from 'zod';
import { parseQuery, queryEnum, queryInteger } from '../../http/query.ts';
import type { AppContext } from '../../http/types.ts';
import { STATUSES, LIST_LIMITS } from '../../requests/list-limits.ts';
import type { GenerationObject } from '../../domain/generations/present.ts';
import { WaitQuery, waitForChange } from '../../requests/wait-for-change.ts';
import type { Generation, GenerationStatus } from '../../domain/model.ts';
import type { DashboardDeps } from '../deps.ts';
import { html } from '../html.ts';
import { readCheckedForm, seeOther, sendHtml, type Viewer } from '../http.ts';
import { deriveBody, deriveForms, sourceLine, type FormValues } from '../views/derive-forms.ts';
import { generationCard, progressText, specSection } from '../views/generation-card.ts';
import { page } from '../views/layout.ts';

export const PAGE_SIZE = 10;
const FILTERS: { status: GenerationStatus | undefined; label: string }[] = [
  { status: undefined, label: 'All' },
  { status: 'pending', label: 'Queued' },
  { status: 'processing', label: 'Rendering' },
  { status: 'completed', label: 'Completed' },
  { status: 'failed', label: 'Failed' },
];

/** The API's object with its live queue state (read from the database's queue in PostgreSQL mode). */
export async function present(deps: DashboardDeps, g: Generation): Promise<GenerationObject> {
  const [presented] = await deps.services.generations.presentAll([g]);
  if (!presented) throw new Error(`presentAll gave nothing back for generation ${g.id}`);
  return presented;
}

const listHref = (status: GenerationStatus | undefined, offset: number, search = ''): string => {
  const query = new URLSearchParams();
  if (search) query.set('q', search);
  if (status) query.set('status', status);
  if (offset > 0) query.set('offset', String(offset));
  const text = query.toString();
  return text === '' ? '/generations' : `/generations?${text}`;
};

const GenerationsPageQuery = z.object({
  status: queryEnum(STATUSES),
  offset: queryInteger({ min: 0, max: LIST_LIMITS.maxOffset, fallback: 0 }),
  done: queryEnum(['cancelled', 'deleted']),
  q: z.string().optional(),
});

export function showGenerations(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const { status, offset, done, q } = parseQuery(ctx.querystring, GenerationsPageQuery);
    const search = (q ?? '').trim().slice(0, 200);
    const { items, total } = await deps.services.generations.list(viewer.account.id, {
      status,
      search,
      limit: PAGE_SIZE,
      offset,
    });
    const presented = await deps.services.generations.presentAll(items);
    const from = total === 0 ? 0 : offset + 1;
    const to = offset + items.length;
    sendHtml(
      ctx,
      page(
        viewer,
        'generations',
        'Generations',
        html`${done ? html`<div class="alert alert-ok" role="status">${done === 'cancelled' ? 'The generation is cancelled.' : 'The track and its audio are deleted.'}</div>` : ''}
<form class="search" method="get" action="/generations" role="search">
  ${status ? html`<input type="hidden" name="status" value="${status}">` : ''}
  <label for="q" class="offscreen">Search prompts</label>
  <input type="search" id="q" name="q" value="${search}" placeholder="Search prompts" maxlength="200">
  <button type="submit" class="button small secondary">Search</button>
</form>
<nav class="tabs" aria-label="Filter by status">
  ${FILTERS.map((f) => html`<a href="${listHref(f.status, 0, search)}"${f.status === status ? html` class="active" aria-current="true"` : ''}>${f.label}</a>`)}
</nav>
${
  items.length === 0
    ? html`<section class="card empty">${search ? html`No generation's prompt contains “${search}”. <a href="/generations">Show all</a>` : offset > 0 ? 'No generations on this page.' : html`No generations${status ? ' with this status' : ''} yet. <a href="/playground">Make one in the playground</a> or call <code>POST /v1/generate</code>.`}</section>`
    : html`<p class="muted small">${from}–${to} of ${total}</p>
<div class="gen-list">${presented.map((g) => generationCard(g, { csrf: viewer.csrf, compact: true }))}</div>
<nav class="pager" aria-label="Pages">
  ${offset > 0 ? html`<a class="button secondary small" href="${listHref(status, Math.max(0, offset - PAGE_SIZE), search)}" rel="prev">← Newer</a>` : html`<span></span>`}
  ${to < total ? html`<a class="button secondary small" href="${listHref(status, offset + PAGE_SIZE, search)}" rel="next">Older →</a>` : html`<span></span>`}
</nav>`
}`,
      ),
    );
  };
}

/** GET /generations/:id — one track's page: player, waveform, lyrics, downloads, the understood spec, delete. */
export function showTrack(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    sendTrackPage(ctx, viewer, await present(deps, await ownGeneration(deps, viewer, ctx.params.id)));
  };
}

function sendTrackPage(
  ctx: AppContext,
  viewer: Viewer,
  g: GenerationObject,
  errors: { extend?: string; remix?: string } = {},
  values: FormValues = {},
  status = 200,
): void {
  sendHtml(
    ctx,
    page(
      viewer,
      'generations',
      g.title ?? 'Generation',
      html`<p class="small"><a href="/generations">← All generations</a></p>
${sourceLine(g)}
${generationCard(g, { csrf: viewer.csrf })}
${deriveForms(g, viewer.csrf, errors, values)}
${specSection(g)}`,
    ),
    status,
  );
}

/**
 * POST /generations/:id/extend and …/remix: a new track made from this one by the API's own derive path; the
 * new track's page next, or this page again with the API's sentence beside the form.
 */
export function deriveFromTrack(deps: DashboardDeps, operation: 'extend' | 'remix') {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    const form = await readCheckedForm(ctx, deps, viewer);
    const source = await ownGeneration(deps, viewer, ctx.params.id);
    const { body, values } = deriveBody(form, operation);
    try {
      refuseWhenSpent(await takeAccountRequest(deps.services, viewer.account));
      const { generation } = await deriveGenerationFor(deps.services, viewer.account, source.id, operation, {
        body,
        requestId: ctx.state.requestId,
      });
      seeOther(ctx, `/generations/${encodeURIComponent(generation.id)}`);
    } catch (error) {
      // The API's one error table decides what is the caller's fault; those become sentences on the form.
      const described = deps.describeError(error);
      if (described.status >= 500) throw error;
      sendTrackPage(
        ctx,
        viewer,
        await present(deps, source),
        { [operation]: described.param === 'section' ? sectionChoice(source, described.message) : described.message },
        values,
        described.status,
      );
    }
  };
}

/** The API counts sections from 0; the form's list counts them from 1, so its refusal does too. */
function sectionChoice(source: Generation, apiMessage: string): string {
  const sections = playedOf(source)?.plan.length;
  return sections === undefined ? apiMessage : `Choose a section from the list: 1 to ${sections}.`;
}

async function ownGeneration(deps: DashboardDeps, viewer: Viewer, id: string | undefined): Promise<Generation> {
  const generation = id === undefined ? undefined : await deps.services.generations.find(viewer.account.id, id);
  if (!generation)
    throw new ResourceNotFoundError('generation_not_found', 'No generation with this id exists in your account.');
  return generation;
}

/**
 * GET /generations/:id/status.json?wait=N — what the page script long-polls while a task is in progress: the
 * answer waits until the status changes or N seconds pass, as the API's GET /v1/generation/:id?wait=N does.
 */
export function generationStatus(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    const { wait } = parseQuery(ctx.querystring, WaitQuery);
    await waitForChange(deps.services, ctx, await ownGeneration(deps, viewer, ctx.params.id), wait);
    const g = await present(deps, await ownGeneration(deps, viewer, ctx.params.id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      id: g.id,
      status: g.status,
      progress: g.progress,
      estimated_time: g.estimated_time ?? null,
      queue_position: g.queue_position,
      progress_text:
        g.status === 'pending' || g.status === 'processing'
          ? progressText({ ...g, estimated_time: g.estimated_time ?? null })
          : null,
    };
  };
}

/** GET /generations/:id/waveform.svg */
export function waveform(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    const generation = await ownGeneration(deps, viewer, ctx.params.id);
    if (generation.status !== 'completed' || !generation.files) {
      throw new ResourceNotFoundError('file_not_found', 'This generation has no audio yet.');
    }
    const svg = await deps.waveforms.svg(generation.id, async () => {
      const wav = await deps.services.generations.file(viewer.account.id, generation.id, 'wav');
      // As its download is: a WAV removed from storage is gone, not a fault of ours.
      if (!wav)
        throw new ResourceNotFoundError('file_not_found', "This generation's audio is no longer on the server.");
      return wav.open();
    });
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = svg;
  };
}

/** POST /generations/:id/cancel: stops a task in progress (the API's cancel). */
export function cancelGeneration(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    await readCheckedForm(ctx, deps, viewer);
    await deps.services.generations.cancel(await ownGeneration(deps, viewer, ctx.params.id));
    seeOther(ctx, '/generations?done=cancelled');
  };
}

/** POST /generations/:id/delete: removes a finished track and its audio (the API's DELETE). */
export function deleteGeneration(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => {
    await readCheckedForm(ctx, deps, viewer);
    await deps.services.generations.delete(await ownGeneration(deps, viewer, ctx.params.id));
    seeOther(ctx, '/generations?done=deleted');
  };
}
