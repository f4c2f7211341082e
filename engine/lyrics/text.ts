/** Lyrics back to text, and counting. */
import type { LyricLine, LyricSectionKind, LyricTiming, Lyrics } from '../types.ts';

const TAG_NAMES: Readonly<Record<LyricSectionKind, string>> = {
  verse: 'Verse',
  prechorus: 'Pre-Chorus',
  chorus: 'Chorus',
  bridge: 'Bridge',
  intro: 'Intro',
  outro: 'Outro',
};

/** "[Verse]\nline\nline\n\n[Chorus]\n..." — the sung text with section tags, as the API shows it. */
export function lyricsText(lyrics: Lyrics): string {
  return lyrics.sections
    .filter((section) => section.lines.length > 0)
    .map((section) => [`[${TAG_NAMES[section.kind]}]`, ...section.lines.map((line) => line.text)].join('\n'))
    .join('\n\n');
}

export function countSyllables(line: LyricLine): number {
  return line.words.reduce((sum, word) => sum + word.syllables.length, 0);
}

/** The same text from timed lines: a tag wherever the section kind changes (a spliced track has no Lyrics object). */
export function timedLyricsText(lines: readonly LyricTiming[]): string {
  const blocks: { kind: LyricSectionKind; lines: string[] }[] = [];
  for (const line of lines) {
    const last = blocks.at(-1);
    if (last && last.kind === line.section) last.lines.push(line.text);
    else blocks.push({ kind: line.section, lines: [line.text] });
  }
  return blocks.map((block) => [`[${TAG_NAMES[block.kind]}]`, ...block.lines].join('\n')).join('\n\n');
}
