/**
 * Where the voice can sing: each sung section is cut into phrase slots ("lines") of one, two or four bars, so a
 * line lasts 3.5 s or more whatever the tempo. A line sings on a grid of eighths (sixteenths at slow tempos) and
 * leaves its last beat for a breath.
 */
import type { LyricSectionKind, SectionKind } from '../../types.ts';
import type { ComposeContext, PlannedSection } from '../model.ts';

/** How a section of the form is sung; kinds absent here (intro, outro) are instrumental. */
const SUNG_AS: Partial<Record<SectionKind, LyricSectionKind>> = {
  verse: 'verse',
  theme: 'verse',
  prechorus: 'prechorus',
  build: 'prechorus',
  chorus: 'chorus',
  drop: 'chorus',
  climax: 'chorus',
  bridge: 'bridge',
  breakdown: 'bridge',
};

/** A line should last at least this long, so it holds a singable phrase. */
const MIN_LINE_SECONDS = 3.5;
/** Beats a line leaves silent at its end: the singer breathes there. */
const BREATH_BEATS = 1;

export interface LineSlot {
  /** Index of the section in ctx.sections. */
  section: number;
  kind: LyricSectionKind;
  /** The section's label ("B" for every chorus), so repeated sections can repeat their melody. */
  label: string;
  /** Index of this line within its section. */
  index: number;
  /** Meter beats: where the line starts, how long it is, and the grid it sings on. */
  beat: number;
  beats: number;
  slotBeats: number;
  /** Grid slots the singing may use (the breath excluded). */
  slots: number;
}

/** An ambient form's second theme (label B) is its contrast: sung, it is the chorus, so the hook is heard. */
export function sungKind(kind: SectionKind, label?: string): LyricSectionKind | null {
  return kind === 'theme' && label === 'B' ? 'chorus' : (SUNG_AS[kind] ?? null);
}

/** Bars per line: the fewest of 1, 2, 4 that last MIN_LINE_SECONDS. */
export function lineBars(ctx: Pick<ComposeContext, 'bpm' | 'beatsPerBar'>): number {
  const barSeconds = (ctx.beatsPerBar * 60) / ctx.bpm;
  return [1, 2, 4].find((bars) => bars * barSeconds >= MIN_LINE_SECONDS) ?? 4;
}

/** The grid step in meter beats: eighths; sixteenths when a beat is long (slow tempos), beats when it is short. */
export function slotBeatsFor(bpm: number): number {
  const beatSeconds = 60 / bpm;
  return beatSeconds >= 0.75 ? 0.25 : beatSeconds < 0.4 ? 1 : 0.5;
}

/**
 * Every line slot of the form's sung sections, in time order. An `answered` style (the blues' call and response)
 * leaves as many bars after each line as the line sings, for the lead instrument to answer in.
 */
export function planLineSlots(
  ctx: Pick<ComposeContext, 'bpm' | 'beatsPerBar' | 'sections' | 'endingBeat'>,
  answered = false,
): LineSlot[] {
  const bars = lineBars(ctx);
  const beats = bars * ctx.beatsPerBar;
  const every = answered ? 2 * beats : beats;
  const slotBeats = slotBeatsFor(ctx.bpm);
  const slots: LineSlot[] = [];
  const planned = ctx.sections.some((section) => section.lyrics !== undefined);
  ctx.sections.forEach((section: PlannedSection, index) => {
    // With lyrics in the plan, exactly the sections that have words are sung (whatever their kind).
    if (planned && section.lyrics === undefined) return;
    const kind = sungKind(section.kind, section.label) ?? (section.lyrics !== undefined ? 'verse' : null);
    if (!kind) return;
    // The last line of a section need not be answered inside it.
    const count = Math.floor((section.beats + every - beats + 1e-6) / every);
    for (let line = 0; line < count; line++) {
      const beat = section.beat + line * every;
      // Nothing is sung over the final held chord.
      if (beat + beats > ctx.endingBeat + 1e-6) break;
      slots.push({
        section: index,
        kind,
        label: section.label,
        index: line,
        beat,
        beats,
        slotBeats,
        slots: Math.round((beats - BREATH_BEATS) / slotBeats),
      });
    }
  });
  return slots;
}

/** The syllable range a written line should have to sit well on `slots` grid steps. */
export function syllableRange(slots: number, slotBeats: number): { min: number; max: number } {
  // On a sixteenth grid a syllable wants about two steps, on eighths a little over one, on beats about one.
  const perSyllable = slotBeats < 0.5 ? 2.2 : slotBeats < 1 ? 1.5 : 1.3;
  const center = slots / perSyllable;
  const max = Math.max(4, Math.min(12, Math.round(center * 1.1)));
  return { min: Math.min(max - 2, Math.max(3, Math.round(center * 0.75))), max };
}
