/**
 * User lyrics -> Lyrics. Section tags in square brackets ([Verse], [Chorus 2], [Pre-Chorus], [Chorus x2])
 * start sections; text before any tag, or lyrics without tags at all, are split at blank lines into blocks:
 * a block that comes back word for word is the chorus, the others are verses. A word the singer cannot read
 * (./script.ts) makes the lyrics invalid, with its line.
 */
import { at, last } from '../checked.ts';
import { InvalidLyricsError } from '../errors.ts';
import type { LyricLine, LyricSection, LyricSectionKind, Lyrics } from '../types.ts';
import { pronounceWord } from './pronounce.ts';
import { isWord, readWord, unreadableMessage } from './script.ts';

export const MAX_LYRICS_CHARS = 3000;

const TAGS: Readonly<Record<string, LyricSectionKind>> = {
  verse: 'verse',
  chorus: 'chorus',
  refrain: 'chorus',
  hook: 'chorus',
  bridge: 'bridge',
  prechorus: 'prechorus',
  intro: 'intro',
  outro: 'outro',
};

/** "[Verse 1]", "[chorus x2]", "[Pre-Chorus]" -> the tag word and how many times the section is sung. */
const TAG_LINE = /^\s*\[([^\]]*)\]\s*$/;

/** One line's words, pronounced; InvalidLyricsError names a word the singer cannot read (`lineNumber` says where). */
export function parseLine(text: string, lineNumber?: number): LyricLine {
  const words = text
    .split(/\s+/)
    .filter(isWord)
    .map((token) => {
      const reading = readWord(token);
      if (!reading.readable)
        throw new InvalidLyricsError(
          unreadableMessage(token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''), reading.script, lineNumber),
        );
      return pronounceWord(reading.text);
    });
  return { text: text.trim(), words };
}

export function parseLyrics(text: string): Lyrics {
  // Characters are Unicode code points, as the API counts them (an emoji is one, not two UTF-16 units).
  const characters = [...text].length;
  if (characters > MAX_LYRICS_CHARS) {
    throw new InvalidLyricsError(
      `Lyrics are ${characters} characters long; the limit is ${MAX_LYRICS_CHARS}. Shorten them or leave some sections out.`,
    );
  }
  const sections: LyricSection[] = [];
  let untagged: NumberedLine[][] = [[]];
  let current: { kind: LyricSectionKind; repeat: number; lines: NumberedLine[] } | null = null;
  const closeSection = () => {
    if (current !== null) {
      // A bare "[Chorus]" after a chorus was written out means "sing that chorus again".
      const earlier = sections.findLast((s) => s.kind === current?.kind);
      const lines = current.lines.length > 0 ? current.lines.map(parseNumbered) : earlier?.lines;
      if (lines !== undefined) for (let i = 0; i < current.repeat; i++) sections.push({ kind: current.kind, lines });
    }
    current = null;
  };
  const closeUntagged = () => {
    sections.push(...blocksToSections(untagged));
    untagged = [[]];
  };

  for (const [index, raw] of text.replace(/\r\n?/g, '\n').split('\n').entries()) {
    const tag = TAG_LINE.exec(raw);
    if (tag !== null) {
      closeSection();
      closeUntagged();
      current = { ...readTag(at(tag, 1), index + 1), lines: [] };
      continue;
    }
    const line = { text: raw.trim(), number: index + 1 };
    const singable = isWord(line.text);
    if (current !== null) {
      if (singable) current.lines.push(line);
    } else if (singable) {
      last(untagged).push(line);
    } else if (line.text === '' && last(untagged).length > 0) {
      untagged.push([]);
    }
  }
  closeSection();
  closeUntagged();
  if (sections.length === 0) {
    throw new InvalidLyricsError(
      'The lyrics have no words to sing. Write at least one line with letters, or leave lyrics out to have them written.',
    );
  }
  return { source: 'given', sections };
}

function readTag(inside: string, lineNumber: number): { kind: LyricSectionKind; repeat: number } {
  const words = inside
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ')
    .trim();
  const match = /^([a-z ]+?)\s*(\d+)?\s*(?:x\s*(\d+))?\s*(?::.*)?$/.exec(words);
  const name = match === null ? '' : at(match, 1).replace(/\s+/g, '');
  const kind = TAGS[name];
  if (match === null || kind === undefined) {
    const known = ['Verse', 'Chorus', 'Pre-Chorus', 'Bridge', 'Intro', 'Outro'].map((t) => `[${t}]`).join(', ');
    throw new InvalidLyricsError(
      `Line ${lineNumber}: unknown section tag "[${inside}]". Use one of ${known}, optionally numbered ("[Verse 2]") or repeated ("[Chorus x2]").`,
    );
  }
  const repeat = match[3] === undefined ? 1 : Number(match[3]);
  if (repeat < 1 || repeat > 8)
    throw new InvalidLyricsError(`Line ${lineNumber}: "[${inside}]" repeats ${repeat} times; use x1 to x8.`);
  return { kind, repeat };
}

/** A line of the lyrics and its number (1-based), for messages that say where. */
interface NumberedLine {
  text: string;
  number: number;
}

const parseNumbered = (line: NumberedLine): LyricLine => parseLine(line.text, line.number);

/** Blank-line separated blocks: one sung verbatim more than once is the chorus, the rest are verses. */
function blocksToSections(blocks: readonly NumberedLine[][]): LyricSection[] {
  const filled = blocks.filter((b) => b.length > 0);
  const key = (block: readonly NumberedLine[]) =>
    block
      .map((l) =>
        l.text
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim(),
      )
      .join('\n');
  const counts = new Map<string, number>();
  for (const block of filled) counts.set(key(block), (counts.get(key(block)) ?? 0) + 1);
  return filled.map((block) => ({
    kind: (counts.get(key(block)) ?? 0) > 1 ? 'chorus' : 'verse',
    lines: block.map(parseNumbered),
  }));
}
