/**
 * One generation as the dashboard shows it, built from the same object GET /v1/generation/:id returns:
 * a player, waveform, facts and downloads when completed; a live progress bar while in progress.
 */
import { DOWNLOAD_KINDS, type DownloadKind } from '../../domain/generations/files.ts';
import type { GenerationObject } from '../../domain/generations/present.ts';
import { html, type Html } from '../html.ts';
import { csrfField } from './forms.ts';
import { karaokeLyrics, plainLyrics, timedLines, vocalsText } from './lyrics.ts';

const STATUS_LABELS: Record<GenerationObject['status'], string> = {
  pending: 'Queued',
  processing: 'Rendering',
  completed: 'Completed',
  failed: 'Failed',
};

/** Download links as paths on this site: they play under the page's CSP whatever the public URL's host. */
const sameSite = (url: string): string => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const DOWNLOAD_LABELS: Record<DownloadKind, string> = {
  wav: 'WAV',
  mp3: 'MP3',
  opus: 'Opus',
  flac: 'FLAC',
  midi: 'MIDI',
  lrc: 'Lyrics (LRC)',
  vtt: 'Subtitles (WebVTT)',
};

/** One button per file the generation has, the WAV first and marked as the main one. */
function downloads(urls: NonNullable<GenerationObject['download_urls']>): Html {
  const links = DOWNLOAD_KINDS.flatMap((kind) => {
    const url = urls[kind];
    return url
      ? [
          html`<a class="button small${kind === 'wav' ? '' : ' secondary'}" href="${sameSite(url)}" download>Download ${DOWNLOAD_LABELS[kind]}</a>`,
        ]
      : [];
  });
  return html`<p class="downloads">${links}</p>`;
}

/** Each stem with a player of its own (they are aligned with the mix), and the zip of them all. */
function stems(urls: Record<string, string>, zip: string | undefined): Html {
  const rows = Object.entries(urls).map(
    ([role, url]) =>
      html`<li><span>${words(role)}</span> <audio controls preload="none" src="${sameSite(url)}"></audio> <a class="button small secondary" href="${sameSite(url)}" download>WAV</a></li>`,
  );
  return html`<section class="stems" aria-label="Stems">
    <h4>Stems</h4>
    <ul class="stem-list">${rows}</ul>
    ${zip ? html`<p><a class="button small secondary" href="${sameSite(zip)}" download>Download all stems (zip)</a></p>` : ''}
  </section>`;
}

/** The player streams the MP3 when there is one (a seventh of the WAV's bytes), else the WAV. */
/**
 * The player plays the WAV: it is stored with the render and seeks by Range, while the MP3 is only made when first
 * downloaded (issue 27), which a page view must not cost.
 */
const playable = (urls: NonNullable<GenerationObject['download_urls']>): string => sameSite(urls.wav);

/** "sawLead" -> "saw lead". */
const words = (name: string): string => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** The engine's key already names its mode ("Bb major"); older metadata had the tonic alone. */
const keyName = (key: string, mode: string | undefined): string =>
  mode && !key.includes(' ') ? `${key} ${words(mode)}` : key;

export function formatDate(iso: string): string {
  return `${new Date(iso).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** What the progress line says, also computed by the page script from the status JSON. */
export function progressText(g: Pick<GenerationObject, 'queue_position' | 'estimated_time' | 'progress'>): string {
  const eta = g.estimated_time == null ? '' : ` · about ${Math.max(1, Math.round(g.estimated_time))} s left`;
  if (g.queue_position !== null && g.queue_position > 0)
    return `Waiting in the queue (position ${g.queue_position})${eta}`;
  return `Rendering ${Math.round(g.progress * 100)}%${eta}`;
}

/** Cancel while in progress; delete, after a confirmation, once finished. */
function actions(g: GenerationObject, csrf: string, live: boolean): Html {
  if (live) {
    return html`<form class="gen-actions" method="post" action="/generations/${g.id}/cancel">${csrfField(csrf)}<button type="submit" class="button small secondary">Cancel</button></form>`;
  }
  return html`<details class="confirm gen-actions">
    <summary class="button small danger-outline">Delete</summary>
    <div class="confirm-box">
      <p>Delete this track and its audio? Its download links stop working. This cannot be undone.</p>
      <form method="post" action="/generations/${g.id}/delete">${csrfField(csrf)}<button type="submit" class="button small danger">Yes, delete this track</button></form>
    </div>
  </details>`;
}

export interface CardOptions {
  /** The viewer's CSRF token: adds the cancel and delete buttons. */
  csrf?: string;
  /** A history entry: the title links to the track's page, with no waveform, facts or lyrics (the page has them). */
  compact?: boolean;
}

export function generationCard(g: GenerationObject, options: CardOptions = {}): Html {
  const { csrf, compact = false } = options;
  const title = g.title ?? (g.status === 'failed' ? 'Failed generation' : 'New track');
  const meta = (g.metadata ?? {}) as {
    genre?: string;
    bpm?: number;
    key?: string;
    mode?: string;
    instruments?: string[];
  };
  const vocals = g.status === 'completed' ? vocalsText(g.metadata) : null;
  const sungLines = g.status === 'completed' ? timedLines(g.metadata) : [];
  const live = g.status === 'pending' || g.status === 'processing';
  return html`<article class="gen-card status-${g.status}" id="gen-${g.id}" data-generation="${g.id}"${live ? html` data-poll="/generations/${g.id}/status.json"` : ''}>
  <header class="gen-head">
    <h3>${compact ? html`<a href="/generations/${g.id}">${title}</a>` : title}</h3>
    <span class="badge badge-${g.status}" data-role="status">${STATUS_LABELS[g.status]}</span>
  </header>
  <p class="prompt">${g.prompt}</p>
  <p class="muted small">${formatDate(g.created_at)} · ${g.duration} s · seed ${g.seed}${g.style ? ` · style ${g.style}` : ''}${g.instrumental ? ' · instrumental' : ''}</p>
  ${
    live
      ? html`<div class="progress-block">
    <progress max="1" value="${g.progress}" data-role="progress" aria-label="Progress"></progress>
    <p class="muted small" data-role="progress-text">${progressText({ queue_position: g.queue_position ?? null, estimated_time: g.estimated_time ?? null, progress: g.progress })}</p>
  </div>`
      : ''
  }
  ${g.status === 'failed' && g.error ? html`<p class="error-text">${g.error.message}</p>` : ''}
  ${
    g.status === 'completed' && g.download_urls && compact
      ? html`<div class="player">
    <audio controls preload="metadata" src="${playable(g.download_urls)}"></audio>
  </div>
  <p class="muted small">${[meta.genre, meta.bpm !== undefined ? `${meta.bpm} BPM` : undefined, meta.key ? keyName(meta.key, meta.mode) : undefined, vocals ? 'sung' : undefined].filter(Boolean).join(' · ')} · <a href="/generations/${g.id}">Details, lyrics and downloads</a></p>`
      : ''
  }
  ${
    g.status === 'completed' && g.download_urls && !compact
      ? html`<div class="player">
    <img class="waveform" src="/generations/${g.id}/waveform.svg" alt="Waveform of ${title}" loading="lazy">
    <audio controls preload="metadata" src="${playable(g.download_urls)}"></audio>
  </div>
  <dl class="facts">
    ${meta.genre ? html`<div><dt>Style</dt><dd>${meta.genre}</dd></div>` : ''}
    ${meta.bpm !== undefined ? html`<div><dt>Tempo</dt><dd>${meta.bpm} BPM</dd></div>` : ''}
    ${meta.key ? html`<div><dt>Key</dt><dd>${keyName(meta.key, meta.mode)}</dd></div>` : ''}
    ${g.time_signature ? html`<div><dt>Time signature</dt><dd>${g.time_signature}</dd></div>` : ''}
    ${g.loudness ? html`<div><dt>Loudness</dt><dd>${g.loudness.integrated.toFixed(1)} LUFS · peak ${g.loudness.true_peak.toFixed(1)} dBTP</dd></div>` : ''}
    ${vocals ? html`<div class="wide"><dt>Vocals</dt><dd>${vocals}</dd></div>` : ''}
    ${meta.instruments?.length ? html`<div class="wide"><dt>Instruments</dt><dd>${meta.instruments.map(words).join(', ')}</dd></div>` : ''}
  </dl>
  ${downloads(g.download_urls)}
  ${g.stem_urls ? stems(g.stem_urls, g.download_urls.stems) : ''}`
      : ''
  }
  ${compact ? '' : sungLines.length > 0 ? karaokeLyrics(sungLines) : g.lyrics ? plainLyrics(g.lyrics, g.status === 'completed' ? 'Lyrics' : 'Lyrics to be sung') : ''}
  ${csrf === undefined ? '' : actions(g, csrf, live)}
</article>`;
}

/** What the engine understood and used, on a track's page: form, meter, instruments, why each was chosen, and what it could not honour. */
export function specSection(g: GenerationObject): Html {
  const meta = (g.metadata ?? {}) as {
    meter?: string;
    sections?: { kind?: string; start?: number; end?: number }[];
    trace?: { source?: string; effect?: string }[];
    warnings?: unknown[];
  };
  const sections = Array.isArray(meta.sections) ? meta.sections : [];
  const trace = Array.isArray(meta.trace) ? meta.trace : [];
  const warnings = Array.isArray(meta.warnings) ? meta.warnings.filter((w): w is string => typeof w === 'string') : [];
  if (g.status !== 'completed') return html``;
  return html`<section class="card spec">
  <h2>What the engine understood</h2>
  ${meta.meter ? html`<p>Meter ${meta.meter}${sections.length > 0 ? html` · form ${sections.map((s) => s.kind ?? '?').join(' → ')}` : ''}</p>` : ''}
  ${warnings.length > 0 ? html`<ul class="warnings">${warnings.map((w) => html`<li>${w}</li>`)}</ul>` : ''}
  ${trace.length > 0 ? html`<ul class="trace">${trace.map((entry) => html`<li><span class="muted">${entry.source ?? ''}</span> ${entry.effect ?? ''}</li>`)}</ul>` : ''}
</section>`;
}
