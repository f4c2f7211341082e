/**
 * A sung track's voice and lyrics as the dashboard shows them. Each sung line is its own element carrying
 * its start and end in seconds, so the page script can light up the line being sung while the track plays.
 * The metadata is the engine's, passed through the API untyped: everything is checked before use.
 */
import { html, type Html } from '../html.ts';

export interface TimedLine {
  section: string;
  text: string;
  start: number;
  end: number;
}

const SECTION_NAMES: Record<string, string> = {
  intro: 'Intro',
  verse: 'Verse',
  prechorus: 'Pre-chorus',
  chorus: 'Chorus',
  bridge: 'Bridge',
  outro: 'Outro',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** `metadata.lyrics_timing`, keeping only well-formed lines. */
export function timedLines(metadata: Record<string, unknown> | undefined): TimedLine[] {
  const timing = metadata?.lyrics_timing;
  if (!Array.isArray(timing)) return [];
  return timing.flatMap((line: unknown) => {
    if (!isRecord(line)) return [];
    const { section, text, start, end } = line;
    if (typeof text !== 'string' || typeof start !== 'number' || typeof end !== 'number' || !(end >= start)) return [];
    return [{ section: typeof section === 'string' ? section : '', text, start, end }];
  });
}

/** "Female voice · your lyrics" for a sung track (from metadata.voice and lyrics_source), null for an instrumental one. */
export function vocalsText(metadata: Record<string, unknown> | undefined): string | null {
  if (metadata?.vocals !== true) return null;
  const voice = metadata.voice === 'female' ? 'Female voice' : metadata.voice === 'male' ? 'Male voice' : 'Sung';
  const words =
    metadata.lyrics_source === 'given'
      ? 'your lyrics'
      : metadata.lyrics_source === 'written'
        ? 'lyrics written from the prompt'
        : null;
  return [voice, words].filter(Boolean).join(' · ');
}

/** 83.4 -> "1:23". */
const clock = (seconds: number): string => {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

/** Consecutive lines of one section under one heading, in the order they are sung. */
function bySection(lines: TimedLine[]): { section: string; lines: TimedLine[] }[] {
  const groups: { section: string; lines: TimedLine[] }[] = [];
  for (const line of lines) {
    const last = groups.at(-1);
    if (last && last.section === line.section) last.lines.push(line);
    else groups.push({ section: line.section, lines: [line] });
  }
  return groups;
}

/** The timed lyrics of a completed sung track: headed sections, one element per line with data-start/data-end. */
export function karaokeLyrics(lines: TimedLine[]): Html {
  return html`<section class="lyrics-sheet" data-karaoke aria-label="Lyrics">
  <h4 class="lyrics-title">Lyrics <span class="muted small">· the line being sung lights up as the track plays</span></h4>
  <div class="lyrics-scroll">
  ${bySection(lines).map(
    (group) => html`<div class="lyric-section">
    <h5>${SECTION_NAMES[group.section] ?? group.section}</h5>
    <ol>${group.lines.map((line) => html`<li class="lyric-line" data-start="${line.start.toFixed(2)}" data-end="${line.end.toFixed(2)}"><span class="lyric-time">${clock(line.start)}</span> <span class="lyric-text">${line.text}</span></li>`)}</ol>
  </div>`,
  )}
  </div>
</section>`;
}

/** Lyrics without timing (still to be sung, or older metadata): the text as written, tags and all. */
export function plainLyrics(text: string, summary: string): Html {
  return html`<details class="lyrics"><summary>${summary}</summary><pre>${text}</pre></details>`;
}
