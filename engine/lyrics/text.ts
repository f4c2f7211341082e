/** Lyrics back to text, and counting. */
import type { LyricLine, LyricSectionKind, Lyrics } from '../types.ts';

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
