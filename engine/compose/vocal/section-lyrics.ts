/**
 * A plan's per-section lyrics: each section's words are sung in that section's own line slots (given lyrics
 * placed as assignGiven places them, but never spilling into another section), or LyricsTooLongError.
 */
import { parseLyrics } from '../../lyrics/index.ts';
import type { Lyrics } from '../../types.ts';
import type { PlannedSection } from '../model.ts';
import { assignGiven, type SungLine } from './assign.ts';
import type { LineSlot } from './lines.ts';

export function sectionLyricLines(
  slots: readonly LineSlot[],
  sections: readonly PlannedSection[],
  duration: number,
): { lyrics: Lyrics; lines: SungLine[] } {
  const lyrics: Lyrics = { source: 'given', sections: [] };
  const lines: SungLine[] = [];
  sections.forEach((section, index) => {
    if (section.lyrics === undefined) return;
    const parsed = parseLyrics(section.lyrics);
    const own = slots.filter((slot) => slot.section === index);
    lines.push(...assignGiven(parsed, own, duration));
    lyrics.sections.push(...parsed.sections);
  });
  return { lyrics, lines };
}
