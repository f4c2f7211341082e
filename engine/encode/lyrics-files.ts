/**
 * Sung lyrics as timed text: LRC (karaoke players, music apps) with one time per line, and WebVTT (video
 * editors, the browser's <track>) with one cue per line and each word's start as an inline timestamp, which
 * players that highlight words use and the others ignore.
 */
import type { LyricTiming } from '../types.ts';

/** A line whose next one starts more than this later is followed by an empty timed line, so the display clears. */
const CLEAR_AFTER_SECONDS = 0.5;

const pad = (value: number, digits: number): string => String(value).padStart(digits, '0');

/** mm:ss.xx, minutes unbounded (LRC's own format). */
function lrcTime(seconds: number): string {
  const centis = Math.max(0, Math.round(seconds * 100));
  return `${pad(Math.floor(centis / 6000), 2)}:${pad(Math.floor(centis / 100) % 60, 2)}.${pad(centis % 100, 2)}`;
}

/** hh:mm:ss.ttt (WebVTT's format). */
function vttTime(seconds: number): string {
  const millis = Math.max(0, Math.round(seconds * 1000));
  return `${pad(Math.floor(millis / 3_600_000), 2)}:${pad(Math.floor(millis / 60_000) % 60, 2)}:${pad(Math.floor(millis / 1000) % 60, 2)}.${pad(millis % 1000, 3)}`;
}

/** LRC tags cannot hold a closing bracket or a line break; neither can a line. */
const lrcText = (text: string): string => text.replace(/[\r\n]+/g, ' ').replace(/[[\]]/g, '');

export function lyricsLrc(lines: readonly LyricTiming[], title: string, duration: number): string {
  const out = [`[ti:${lrcText(title)}]`, `[length:${lrcTime(duration).slice(0, 5)}]`, '[re:Tunesmith]'];
  lines.forEach((line, index) => {
    out.push(`[${lrcTime(line.start)}]${lrcText(line.text)}`);
    const next = lines[index + 1];
    if (!next || next.start - line.end > CLEAR_AFTER_SECONDS) out.push(`[${lrcTime(line.end)}]`);
  });
  return `${out.join('\n')}\n`;
}

/** WebVTT cue text must not contain "-->", and &, < and > are escaped. */
const vttText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/-->/g, '--&gt;');

export function lyricsVtt(lines: readonly LyricTiming[]): string {
  const cues = lines.map(
    (line, index) => `${index + 1}\n${vttTime(line.start)} --> ${vttTime(line.end)}\n${timedText(line)}`,
  );
  return `${['WEBVTT', ...cues].join('\n\n')}\n`;
}

/**
 * The line as written (punctuation kept), with each later word's start inserted before it. Words are found in
 * order in the text; a word the text does not spell the same way gets no timestamp. Timestamps must lie
 * strictly inside the cue to be valid, so a word starting with the line gets none.
 */
function timedText(line: LyricTiming): string {
  const text = line.text.replace(/[\r\n]+/g, ' ');
  const lower = text.toLowerCase();
  let out = '';
  let cursor = 0;
  for (const word of line.words) {
    const at = lower.indexOf(word.text.toLowerCase(), cursor);
    if (at === -1) continue;
    if (word.start > line.start && word.start < line.end) {
      out += `${vttText(text.slice(cursor, at))}<${vttTime(word.start)}>`;
      cursor = at;
    }
  }
  return out + vttText(text.slice(cursor));
}
