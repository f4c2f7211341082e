/**
 * Song form: which sections, how many bars each, how full each one is, and which roles play in it.
 * Templates follow the bar-budget table of the reference study (2.5) per form kind; they are then fitted
 * so the bars add up exactly to the track length. The final section also takes the fractional last bar.
 */
import { at, last } from '../checked.ts';
import type { FormKind, PlanKind, ResolvedPlanSection, Role, SectionKind } from '../types.ts';
import type { PlannedSection } from './model.ts';

interface SectionTemplate {
  kind: SectionKind;
  label: string;
  bars: number;
  energy: number;
  /** Explicit layers (ambient); otherwise the roles come from the section kind. */
  roles?: Role[];
}

const ALL_ROLES: Role[] = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture'];

/** Which roles play in each kind of section: the intro is sparse, choruses and drops are fullest. */
const KIND_ROLES: Record<SectionKind, Role[]> = {
  intro: ['chords', 'pad', 'texture', 'arp'],
  verse: ['drums', 'bass', 'chords', 'pad', 'lead', 'texture'],
  prechorus: ['drums', 'bass', 'chords', 'pad', 'lead', 'texture', 'arp'],
  chorus: ALL_ROLES,
  bridge: ['drums', 'bass', 'chords', 'pad', 'lead', 'texture', 'arp'],
  build: ['drums', 'chords', 'pad', 'arp', 'texture'],
  drop: ALL_ROLES,
  breakdown: ['chords', 'pad', 'lead', 'texture', 'arp'],
  theme: ['drums', 'bass', 'chords', 'pad', 'lead', 'texture'],
  climax: ALL_ROLES,
  outro: ['drums', 'bass', 'chords', 'pad', 'lead', 'texture'],
};

/** A song shorter than this many bars brings its drums in from the first bar. */
export const SHORT_SONG_BARS = 16;

const s = (kind: SectionKind, label: string, bars: number, energy: number, roles?: Role[]): SectionTemplate =>
  roles ? { kind, label, bars, energy, roles } : { kind, label, bars, energy };

/** Templates per form, from the smallest budget up; the first whose nominal length fits best is used. */
function templatesFor(form: FormKind, budget: number): SectionTemplate[] {
  switch (form) {
    case 'song':
      if (budget <= 12) return [s('intro', 'I', 2, 0.3), s('verse', 'A', 8, 0.6), s('outro', 'O', 2, 0.4)];
      if (budget <= 25)
        return [s('intro', 'I', 4, 0.3), s('verse', 'A', 8, 0.5), s('chorus', 'B', 8, 0.9), s('outro', 'O', 4, 0.4)];
      // About a minute (26-40 bars): one verse, a whole chorus, a 4-bar bridge and the chorus again, so the chorus
      // is sung with all its words and the song still turns; with fewer than 30 bars the last chorus is cut to its
      // hook and answer rather than any chorus losing its second half.
      if (budget <= 40) {
        const spare = budget - (budget >= 30 ? 28 : 24);
        const intro = Math.max(1, Math.min(4, Math.floor(spare / 2)));
        return [
          s('intro', 'I', intro, 0.3),
          s('verse', 'A', 8, 0.5),
          s('chorus', 'B', 8, 0.9),
          s('bridge', 'C', 4, 0.55),
          s('chorus', 'B', budget >= 30 ? 8 : 4, 1),
          s('outro', 'O', Math.max(1, Math.min(4, spare - intro)), 0.4),
        ];
      }
      if (budget <= 48) {
        return [
          s('intro', 'I', 4, 0.3),
          s('verse', 'A', 8, 0.5),
          s('chorus', 'B', 8, 0.9),
          s('verse', 'A', 8, 0.55),
          s('chorus', 'B', 8, 0.95),
          s('outro', 'O', 4, 0.4),
        ];
      }
      // About two minutes at a moderate tempo (49-64 bars): two verses, three whole choruses and a bridge. The long
      // form below, fitted this short, cut its choruses to two lines and kept its pre-choruses.
      if (budget <= 64) {
        return [
          s('intro', 'I', 4, 0.3),
          s('verse', 'A', 8, 0.5),
          s('chorus', 'B', 8, 0.9),
          s('verse', 'A', 8, 0.55),
          s('chorus', 'B', 8, 0.95),
          s('bridge', 'C', 8, 0.55),
          s('chorus', 'B', 8, 1),
          s('outro', 'O', 4, 0.4),
        ];
      }
      return [
        s('intro', 'I', 4, 0.3),
        s('verse', 'A', 16, 0.5),
        s('prechorus', 'P', 4, 0.65),
        s('chorus', 'B', 8, 0.9),
        s('verse', 'A', 16, 0.55),
        s('prechorus', 'P', 4, 0.7),
        s('chorus', 'B', 8, 0.95),
        s('bridge', 'C', 8, 0.55),
        s('chorus', 'B', 8, 1),
        s('outro', 'O', 4, 0.4),
      ];
    case 'electronic': {
      // Dance intros keep the beat (a sparse one) for the DJ to mix in.
      const intro = (bars: number) => s('intro', 'I', bars, 0.35, ['drums', 'chords', 'pad', 'texture', 'arp']);
      if (budget <= 24) return [intro(2), s('build', 'U', 4, 0.6), s('drop', 'D', 8, 1), s('outro', 'O', 2, 0.4)];
      if (budget <= 40) {
        return [
          intro(4),
          s('build', 'U', 4, 0.6),
          s('drop', 'D', 8, 1),
          s('breakdown', 'K', 4, 0.3),
          s('build', 'U', 4, 0.65),
          s('drop', 'D', 8, 1),
          s('outro', 'O', 4, 0.4),
        ];
      }
      return [
        intro(8),
        s('build', 'U', 8, 0.6),
        s('drop', 'D', 16, 1),
        s('breakdown', 'K', 8, 0.3),
        s('build', 'U', 8, 0.65),
        s('drop', 'D', 16, 1),
        s('outro', 'O', 8, 0.4),
      ];
    }
    case 'ambient': {
      // Evolving layers: each section adds or removes roles instead of switching verse/chorus.
      const intro = s('intro', 'I', 4, 0.2, ['pad', 'texture', 'chords']);
      const a = s('theme', 'A', 8, 0.35, ['pad', 'chords', 'bass', 'texture', 'lead', 'arp', 'drums']);
      const b = s('theme', 'B', 8, 0.5, ['pad', 'chords', 'bass', 'texture', 'lead', 'arp', 'drums']);
      const k = s('breakdown', 'K', 8, 0.25, ['pad', 'texture', 'lead']);
      const outro = s('outro', 'O', 4, 0.2, ['pad', 'chords', 'texture', 'lead']);
      if (budget <= 12) return [{ ...intro, bars: 2 }, a, { ...outro, bars: 2 }];
      if (budget <= 32) return [intro, a, b, { ...a, energy: 0.4 }, outro];
      return [
        { ...intro, bars: 8 },
        { ...a, bars: 16 },
        { ...b, bars: 16 },
        k,
        { ...a, bars: 16, energy: 0.4 },
        { ...outro, bars: 8 },
      ];
    }
    case 'orchestral':
      if (budget <= 12) return [s('intro', 'I', 2, 0.3), s('theme', 'A', 8, 0.6), s('outro', 'O', 2, 0.4)];
      if (budget <= 28)
        return [s('intro', 'I', 4, 0.3), s('theme', 'A', 8, 0.55), s('climax', 'B', 8, 1), s('outro', 'O', 4, 0.4)];
      if (budget <= 48) {
        return [
          s('intro', 'I', 4, 0.3),
          s('theme', 'A', 8, 0.5),
          s('build', 'U', 8, 0.7),
          s('climax', 'B', 8, 1),
          s('outro', 'O', 4, 0.4),
        ];
      }
      return [
        s('intro', 'I', 4, 0.3),
        s('theme', 'A', 16, 0.5),
        s('build', 'U', 8, 0.7),
        s('climax', 'B', 16, 1),
        s('bridge', 'C', 8, 0.45),
        s('build', 'U', 8, 0.75),
        s('climax', 'B', 16, 1),
        s('outro', 'O', 8, 0.4),
      ];
    case 'loop':
      // Lo-fi: the same 4-bar loops, drums dropped at section edges (drums.ts), no big contrasts.
      if (budget <= 12) return [s('intro', 'I', 2, 0.3), s('verse', 'A', 8, 0.6), s('outro', 'O', 2, 0.35)];
      if (budget <= 24)
        return [s('intro', 'I', 4, 0.3), s('verse', 'A', 8, 0.55), s('chorus', 'B', 8, 0.8), s('outro', 'O', 4, 0.35)];
      if (budget <= 48) {
        return [
          s('intro', 'I', 4, 0.3),
          s('verse', 'A', 8, 0.55),
          s('chorus', 'B', 8, 0.8),
          s('verse', 'A', 8, 0.55),
          s('chorus', 'B', 8, 0.85),
          s('outro', 'O', 4, 0.35),
        ];
      }
      return [
        s('intro', 'I', 4, 0.3),
        s('verse', 'A', 8, 0.55),
        s('chorus', 'B', 8, 0.8),
        s('verse', 'A', 8, 0.55),
        s('chorus', 'B', 8, 0.85),
        s('bridge', 'C', 8, 0.45),
        s('verse', 'A', 8, 0.6),
        s('chorus', 'B', 8, 0.9),
        s('outro', 'O', 4, 0.35),
      ];
  }
}

/** Sections that lead somewhere (a build into its drop, a breakdown out of one) would lead nowhere at a loop's seam. */
const NOT_IN_LOOPS: ReadonlySet<SectionKind> = new Set(['intro', 'outro', 'build', 'breakdown']);

/** A loop's sections: the main ones that stand on their own (all main ones when none does). */
function loopTemplates(templates: SectionTemplate[]): SectionTemplate[] {
  const standing = templates.filter((t) => !NOT_IN_LOOPS.has(t.kind));
  return standing.length > 0 ? standing : templates.filter((t) => t.kind !== 'intro' && t.kind !== 'outro');
}

/**
 * Fits template lengths to exactly `budget` whole bars while keeping main sections in whole 4-bar phrases:
 * shrinking trims the intro and outro first (down to a bar), then the longest main section (with its repeats) by a
 * phrase; growing adds phrases to main sections, loudest first, and leaves the last few bars to the outro.
 */
function fitBars(templates: SectionTemplate[], budget: number): number[] {
  const bars = templates.map((t) => t.bars);
  const last = bars.length - 1;
  const edges = [0, last].filter((i) => at(templates, i).kind === 'intro' || at(templates, i).kind === 'outro');
  const main = templates.map((_, i) => i).filter((i) => !edges.includes(i));
  const sum = () => bars.reduce((a, b) => a + b, 0);
  // Takes `by` bars off section i if it has more than that to give.
  const takeBars = (i: number, by: number): boolean => {
    const size = at(bars, i);
    if (size <= by) return false;
    bars[i] = size - by;
    return true;
  };
  const shrinkers: (() => boolean)[] = [
    ...edges.map((i) => () => takeBars(i, 2)),
    ...edges.map((i) => () => takeBars(i, 1)),
    () => {
      // Repeats of a label shrink together, so a shortened repeat is not a truncated copy of its first.
      let pick = -1;
      for (const i of main) if (at(bars, i) > 4 && (pick < 0 || at(bars, i) >= at(bars, pick))) pick = i;
      if (pick < 0) return false;
      const size = at(bars, pick);
      const label = at(templates, pick).label;
      for (const i of main) if (at(templates, i).label === label && bars[i] === size) bars[i] = size - 4;
      return true;
    },
    () => {
      let pick = -1;
      for (const i of main) if (at(bars, i) > 1 && (pick < 0 || at(bars, i) >= at(bars, pick))) pick = i;
      return pick >= 0 && takeBars(pick, 1);
    },
  ];
  while (sum() > budget) {
    if (!shrinkers.some((shrink) => shrink())) break;
  }
  // Grow whole labels (every repeat by a phrase), loudest first, while they fit; then single sections.
  const labels = [
    ...new Set(
      [...main]
        .sort((a, b) => at(templates, b).energy - at(templates, a).energy || b - a)
        .map((i) => at(templates, i).label),
    ),
  ];
  const members = (label: string) => main.filter((i) => at(templates, i).label === label);
  for (let k = 0, misses = 0; budget - sum() >= 4 && labels.length > 0 && misses < labels.length; k++) {
    const group = members(at(labels, k % labels.length));
    if (group.length * 4 > budget - sum()) {
      misses++;
      continue;
    }
    misses = 0;
    for (const i of group) bars[i] = at(bars, i) + 4;
  }
  const singles = [...main].sort((a, b) => at(templates, b).energy - at(templates, a).energy || b - a);
  for (let k = 0; budget - sum() >= 4 && singles.length > 0; k++) {
    const i = at(singles, k % singles.length);
    bars[i] = at(bars, i) + 4;
  }
  bars[last] = at(bars, last) + (budget - sum());
  return bars;
}

/**
 * Plans the sections of a track with `totalBars` bars (may be fractional) in form `form`. A seamless loop
 * (`loop`) has no intro or outro: it is all main sections, the last one leading back into the first.
 */
export function planForm(
  form: FormKind,
  totalBars: number,
  beatsPerBar: number,
  available: ReadonlySet<Role>,
  loop = false,
): PlannedSection[] {
  const whole = Math.floor(totalBars + 1e-9);
  let templates = templatesFor(form, whole);
  if (loop) templates = loopTemplates(templates);
  let bars: number[];
  if (whole < 4) {
    // Too short for a form: one section that is all melody and harmony.
    const main = templates.find((t) => t.kind !== 'intro' && t.kind !== 'outro') ?? at(templates, 0);
    templates = [main];
    bars = [whole];
  } else {
    if (templates.length > 3 && whole < templates.length * 2)
      templates = [at(templates, 0), at(templates, 1), last(templates)];
    bars = fitBars(templates, whole);
  }
  bars[bars.length - 1] = last(bars) + (totalBars - whole);

  // A short song (a 30 s clip) cannot spend its first bars without a beat: its intro keeps the drums, which play
  // the quiet groove and fill into the verse (drums.ts), and its outro the full groove.
  const drummedIntro = form === 'song' && whole < SHORT_SONG_BARS;
  let startBar = 0;
  const sections = templates.map((template, i) => {
    const sectionBars = at(bars, i);
    const kindRoles = KIND_ROLES[template.kind];
    const wanted =
      template.roles ?? (drummedIntro && template.kind === 'intro' ? [...kindRoles, 'drums' as const] : kindRoles);
    let roles = new Set(wanted.filter((role) => available.has(role)));
    // A section that would be silent (a solo-piano intro without chords) plays everything there is.
    if (roles.size === 0) roles = new Set(available);
    const section: PlannedSection = {
      kind: template.kind,
      label: template.label,
      startBar,
      bars: sectionBars,
      // A short song's outro keeps the full groove up to its final chord: the held ending is its wind-down.
      energy: drummedIntro && template.kind === 'outro' ? Math.max(template.energy, 0.6) : template.energy,
      roles,
      beat: startBar * beatsPerBar,
      beats: sectionBars * beatsPerBar,
    };
    startBar += sectionBars;
    return section;
  });
  return withEveryRole(sections, available);
}

/**
 * Every role of the arrangement plays somewhere: one the form's sections all leave out (a harp asked of an
 * ambient piece whose short form has no arpeggio section) joins the main sections, or every section when there
 * are none. Listed among the track's instruments, it would else be silent for the whole track.
 */
function withEveryRole(sections: PlannedSection[], available: ReadonlySet<Role>): PlannedSection[] {
  const silent = [...available].filter((role) => !sections.some((section) => section.roles.has(role)));
  if (silent.length === 0) return sections;
  const main = sections.filter((section) => section.kind !== 'intro' && section.kind !== 'outro');
  const joined = new Set(main.length > 0 ? main : sections);
  return sections.map((section) =>
    joined.has(section) ? { ...section, roles: new Set([...section.roles, ...silent]) } : section,
  );
}

/**
 * A plan kind as the composer plays it: the engine's own kind (whose harmony, drums and vocal rules apply), its
 * label (repeats of a kind share material, as a template's repeats do) and its usual energy.
 */
const PLAN_AS: Record<PlanKind, { kind: SectionKind; label: string; energy: number; roles?: Role[] }> = {
  intro: { kind: 'intro', label: 'I', energy: 0.3 },
  verse: { kind: 'verse', label: 'A', energy: 0.55 },
  prechorus: { kind: 'prechorus', label: 'P', energy: 0.7 },
  chorus: { kind: 'chorus', label: 'B', energy: 0.9 },
  bridge: { kind: 'bridge', label: 'C', energy: 0.55 },
  drop: { kind: 'drop', label: 'D', energy: 1 },
  breakdown: { kind: 'breakdown', label: 'K', energy: 0.3 },
  // A solo is a bridge whose lead plays throughout (no voice over it: the vocal sings verses and choruses).
  solo: { kind: 'bridge', label: 'S', energy: 0.75, roles: ALL_ROLES },
  outro: { kind: 'outro', label: 'O', energy: 0.4 },
};

/** The usual energy of a plan kind, for a plan section that gives none. */
export const planKindEnergy = (kind: PlanKind): number => PLAN_AS[kind].energy;

/** The roles a section of this plan kind plays when it names none. */
export function planKindRoles(kind: PlanKind, available: ReadonlySet<Role>): Role[] {
  const wanted = PLAN_AS[kind].roles ?? KIND_ROLES[PLAN_AS[kind].kind];
  const roles = wanted.filter((role) => available.has(role));
  return roles.length > 0 ? roles : [...available];
}

/**
 * The sections of a composition plan, exactly as asked: in order, each its whole bars, so every boundary is a
 * bar line. `roles` are the roles each section plays (already resolved against the arrangement, interpret/plan.ts).
 */
export function planFromSections(
  plan: readonly ResolvedPlanSection[],
  roles: readonly (readonly Role[])[],
  beatsPerBar: number,
): PlannedSection[] {
  let startBar = 0;
  return plan.map((asked, i) => {
    const as = PLAN_AS[asked.kind];
    const section: PlannedSection = {
      kind: as.kind,
      label: as.label,
      startBar,
      bars: asked.bars,
      energy: asked.energy,
      roles: new Set(roles[i]),
      beat: startBar * beatsPerBar,
      beats: asked.bars * beatsPerBar,
      planKind: asked.kind,
      ...(asked.lyrics !== null ? { lyrics: asked.lyrics } : {}),
    };
    startBar += asked.bars;
    return section;
  });
}
