/**
 * Which lyric line is sung in which line slot. Given lyrics fill the slots in order (a new lyric section starts
 * on a new form section when there is room to), a line too long for one phrase is split in two, and lyrics that
 * cannot fit are refused with the number of lines that would. Written lyrics are ordered to fit the form.
 */
import { at } from '../../checked.ts';
import { LyricsTooLongError } from '../../errors.ts';
import { countSyllables } from '../../lyrics/index.ts';
import type { LyricLine, LyricSectionKind, Lyrics } from '../../types.ts';
import type { LineSlot } from './lines.ts';

export interface SungLine {
  slot: LineSlot;
  line: LyricLine;
  kind: LyricSectionKind;
}

/** Most syllables a slot can carry: every step but the held last two. */
export const slotCapacity = (slot: LineSlot): number => slot.slots - 1;

/** Splits a line at the word boundary nearest its syllable midpoint. */
export function splitLine(line: LyricLine): [LyricLine, LyricLine] {
  const total = countSyllables(line);
  let best = 1;
  let bestDistance = Infinity;
  let running = 0;
  for (let w = 0; w < line.words.length - 1; w++) {
    running += at(line.words, w).syllables.length;
    const distance = Math.abs(running - total / 2);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = w + 1;
    }
  }
  const part = (words: LyricLine['words']): LyricLine => ({ text: words.map((w) => w.text).join(' '), words });
  return [part(line.words.slice(0, best)), part(line.words.slice(best))];
}

/** The lines as they will be sung: each split until it fits the smallest slot (a one-word line never splits). */
function singableLines(lyrics: Lyrics, capacity: number): { kind: LyricSectionKind; lines: LyricLine[] }[] {
  return lyrics.sections.map((section) => {
    const lines: LyricLine[] = [];
    const queue = [...section.lines];
    for (let line = queue.shift(); line !== undefined; line = queue.shift()) {
      if (countSyllables(line) > capacity && line.words.length > 1) queue.unshift(...splitLine(line));
      else lines.push(line);
    }
    return { kind: section.kind, lines };
  });
}

/** Places given lyrics in the slots, or throws LyricsTooLongError. */
export function assignGiven(lyrics: Lyrics, slots: readonly LineSlot[], duration: number): SungLine[] {
  const capacity = slots.length > 0 ? Math.min(...slots.map(slotCapacity)) : 0;
  const sections = singableLines(lyrics, capacity);
  const needed = sections.reduce((sum, s) => sum + s.lines.length, 0);
  if (needed > slots.length || slots.length === 0) throw new LyricsTooLongError(needed, slots.length, duration);
  const sung: SungLine[] = [];
  let next = 0;
  let remainingNeeded = needed;
  for (const section of sections) {
    // Start the lyric section on a fresh form section when the slots after that still hold everything left.
    if (next > 0 && next < slots.length && at(slots, next).index !== 0) {
      let fresh = next;
      while (fresh < slots.length && at(slots, fresh).index !== 0) fresh++;
      if (slots.length - fresh >= remainingNeeded) next = fresh;
    }
    for (const line of section.lines) {
      sung.push({ slot: at(slots, next), line, kind: section.kind });
      next++;
      remainingNeeded--;
    }
  }
  return sung;
}

/** Places written lyrics (one lyric section per sung form section, in order) in their sections' slots. */
export function assignWritten(lyrics: Lyrics, slotsBySection: readonly LineSlot[][]): SungLine[] {
  const sung: SungLine[] = [];
  lyrics.sections.forEach((section, i) => {
    const slots = slotsBySection[i] ?? [];
    section.lines.forEach((line, j) => {
      const slot = slots[j];
      if (slot && countSyllables(line) <= slotCapacity(slot)) sung.push({ slot, line, kind: section.kind });
    });
  });
  return sung;
}
