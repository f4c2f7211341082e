/**
 * Harmony: the chord skeleton everything else is conditioned on. Each section label gets a progression from
 * the preset (repeats of a label reuse it; a new label prefers a progression not used yet; the first one
 * starts on the tonic so the key is stated at once), looped at the
 * preset's harmonic rhythm, with half cadences into tonic-led sections and a full cadence into the final
 * tonic chord that rings out the ending.
 */
import { at, defined } from '../checked.ts';
import type { Mode, Preset } from '../types.ts';
import type { Random } from '../random.ts';
import { isMinorMode, scaleOf } from '../theory/scales.ts';
import { parseRoman, type ParsedChord } from '../theory/roman.ts';
import { mod } from '../theory/pitch.ts';
import { EPSILON, type ChordSlot, type PlannedSection } from './model.ts';

/** Roots (semitones above the tonic) that lead home: V, bVII, IV/iv, bII and the lydian II. */
const DOMINANT_LIKE = new Set([7, 10, 5, 1, 2]);

export interface HarmonyOptions {
  preset: Preset;
  /** A blended second genre: its progressions are picked with probability `weight`. */
  blend?: { preset: Preset; weight: number } | undefined;
  mode: Mode;
  tonic: number;
  bpm: number;
  arousal: number;
  beatsPerBar: number;
  totalBeats: number;
  /** Where the final tonic chord starts. */
  endingBeat: number;
}

/** Chords per bar after tempo and mood: slower for fast tempos and low arousal (as Abundant Music does). */
export function chordsPerBar(preset: Preset, bpm: number, arousal: number): number {
  const slow = bpm > 120 || arousal < -0.6;
  return slow && preset.harmonicRhythm >= 1 ? preset.harmonicRhythm / 2 : preset.harmonicRhythm;
}

/**
 * Whether a progression stays inside the mode: every chord tone in the scale, except the leading tone of
 * a chord on the fifth degree (the V of harmonic minor, idiomatic in every minor-ish mode).
 */
export function fitsMode(progression: readonly string[], tonic: number, mode: Mode): boolean {
  const scale = scaleOf(tonic, mode);
  const leadingTone = mod(tonic - 1, 12);
  return progression.every((symbol) => {
    const chord = parseRoman(symbol, tonic);
    return chord.pitchClasses.every(
      (pc) => scale.includes(pc) || (pc === leadingTone && rootDegree(chord, tonic) === 7),
    );
  });
}

/**
 * The style's progressions for this mode, keeping those that fit it (a dorian ii7 does not belong in
 * natural minor: its major sixth would blur the key); all of them when none fits.
 */
function progressionsOf(preset: Preset, mode: Mode, tonic: number): string[][] {
  const list = isMinorMode(mode) ? preset.progressions.minor : preset.progressions.major;
  const fitting = list.filter((p) => fitsMode(p, tonic, mode));
  return fitting.length > 0 ? fitting : list;
}

/** A two-chord vamp: the tonic chord and one other, taking turns (i7 bVII i7 bVII, i iv). */
function isTonicVamp(progression: readonly string[], tonic: number): boolean {
  if (progression.length < 2 || progression.length % 2 === 1) return false;
  const other = at(progression, 1);
  return (
    progression.every((symbol, i) =>
      i % 2 === 0 ? rootDegree(parseRoman(symbol, tonic), tonic) === 0 : symbol === other,
    ) && rootDegree(parseRoman(other, tonic), tonic) !== 0
  );
}

/** Where a progression has its tonic chords. */
function tonicPositions(progression: readonly string[], tonic: number): number[] {
  return progression.flatMap((symbol, i) => (rootDegree(parseRoman(symbol, tonic), tonic) === 0 ? [i] : []));
}

/**
 * The progression turned to start on a tonic chord (the `nth` one, counting round), if it has one: a section
 * states the key as it begins. In a short section only its first chord or two sound, so a section that began
 * on its bVII or V would be heard as being in that chord's key.
 */
function startingOnTonic(progression: string[], tonic: number, nth = 0): string[] {
  const positions = tonicPositions(progression, tonic);
  const start = positions.length > 0 ? at(positions, nth % positions.length) : 0;
  return start > 0 ? [...progression.slice(start), ...progression.slice(0, start)] : progression;
}

function rootDegree(chord: ParsedChord, tonic: number): number {
  return mod(chord.root - tonic, 12);
}

/** The chord the genre uses to lead home: the commonest dominant-like chord before a tonic in its progressions. */
export function cadenceSymbol(progressions: readonly string[][], mode: Mode, tonic: number): string {
  const counts = new Map<string, number>();
  for (const progression of progressions) {
    progression.forEach((symbol, i) => {
      const next = at(progression, (i + 1) % progression.length);
      const chord = parseRoman(symbol, tonic);
      if (rootDegree(parseRoman(next, tonic), tonic) === 0 && DOMINANT_LIKE.has(rootDegree(chord, tonic))) {
        counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      }
    });
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  if (best) return best[0];
  const fallback: Record<Mode, string> = {
    major: 'V',
    lydian: 'II',
    mixolydian: 'bVII',
    minor: 'bVII',
    dorian: 'IV',
    phrygian: 'bII',
    harmonicMinor: 'V',
  };
  return fallback[mode];
}

/** The genre's spelling of the tonic chord ("Imaj7", "i7"), or a plain triad. */
export function tonicSymbol(progressions: readonly string[][], mode: Mode, tonic: number): string {
  const minor = isMinorMode(mode);
  for (const progression of progressions) {
    for (const symbol of progression) {
      const chord = parseRoman(symbol, tonic);
      if (rootDegree(chord, tonic) === 0 && chord.minor === minor) return symbol;
    }
  }
  return minor ? 'i' : 'I';
}

/** Plans every chord of the track. Sections must already be planned. */
export function planHarmony(sections: readonly PlannedSection[], options: HarmonyOptions, random: Random): ChordSlot[] {
  const { preset, mode, tonic, beatsPerBar, totalBeats, endingBeat } = options;
  const own = progressionsOf(preset, mode, tonic);
  const blended = options.blend ? progressionsOf(options.blend.preset, mode, tonic) : [];
  const all = [...own, ...blended];
  const cadence = cadenceSymbol(all, mode, tonic);
  const home = tonicSymbol(all, mode, tonic);
  // An odd bar (3/4, 5/4, 7/8) does not halve on a beat: it changes chord at most once a bar.
  const perBar = chordsPerBar(preset, options.bpm, options.arousal);
  const slotBeats = beatsPerBar / (beatsPerBar % 2 === 1 ? Math.min(1, perBar) : perBar);

  // One progression per label; the intro previews the first main section's, the outro recalls it.
  const byLabel = new Map<string, string[]>();
  const used = new Set<string[]>();
  const firstMain = sections.find((s) => s.kind !== 'intro' && s.kind !== 'outro') ?? at(sections, 0);
  const labelFor = (section: PlannedSection) =>
    section.kind === 'intro' || section.kind === 'outro' ? firstMain.label : section.label;
  for (const section of sections) {
    const label = labelFor(section);
    if (byLabel.has(label)) continue;
    const useBlend = options.blend !== undefined && blended.length > 0 && random.chance(options.blend.weight);
    const pool = useBlend ? blended : own;
    const fresh = pool.filter((p) => !used.has(p));
    const picked = random.pick(fresh.length > 0 ? fresh : pool);
    // Only one progression to go round: a new section starts it at another of its tonic chords when it has
    // two (I IV I V from the second I), so it still sounds different; otherwise it repeats it. A bridge may
    // start away from home (that is its point); every other section starts on the tonic.
    const reused = used.has(picked);
    const shift = reused && picked.length > 1 ? 1 + random.int(0, picked.length - 2) : 0;
    const rotated = shift > 0 ? [...picked.slice(shift), ...picked.slice(0, shift)] : picked;
    used.add(picked);
    const fromHome = label === firstMain.label || section.kind !== 'bridge';
    byLabel.set(label, fromHome ? startingOnTonic(picked, tonic, reused ? 1 : 0) : rotated);
  }

  const slots: ChordSlot[] = [];
  sections.forEach((section, index) => {
    const progression = defined(byLabel.get(labelFor(section)), 'progression of the section');
    const vamp = isTonicVamp(progression, tonic);
    let i = 0;
    for (let beat = section.beat; beat < section.beat + section.beats - EPSILON; beat += slotBeats, i++) {
      const symbol = at(progression, i % progression.length);
      const beats = Math.min(slotBeats, section.beat + section.beats - beat);
      const chord = parseRoman(symbol, tonic);
      if (vamp && rootDegree(chord, tonic) !== 0 && beats >= beatsPerBar - EPSILON && beatsPerBar % 2 === 0) {
        // A vamp leans on its tonic: the other chord comes in halfway through its slot (i7 | i7 bVII), the
        // tonic holding over. Evenly split, i7–bVII in F# minor was heard as E major, its bVII.
        const home = at(progression, mod(i - 1, progression.length));
        slots.push({ beat, beats: beats / 2, symbol: home, chord: parseRoman(home, tonic), section: index });
        slots.push({ beat: beat + beats / 2, beats: beats / 2, symbol, chord, section: index });
        continue;
      }
      slots.push({ beat, beats, symbol, chord, section: index });
    }
  });

  const halved = addHalfCadences(slots, cadence, tonic, beatsPerBar);
  return addEnding(halved, {
    cadence,
    home,
    tonic,
    endingBeat,
    totalBeats,
    beatsPerBar,
    lastSection: sections.length - 1,
  });
}

/**
 * `slot` made to lead home with `cadence`: in its last bar when it is longer than a bar (the section's own chord
 * keeps the rest, as a turnaround does), the whole slot otherwise. A slow harmonic rhythm (a chord every two
 * bars) would else give the cadence chord half of a short section, and the section would be heard in its key.
 */
function withCadence(slot: ChordSlot, cadence: string, tonic: number, beatsPerBar: number): ChordSlot[] {
  const chord = parseRoman(cadence, tonic);
  if (slot.beats <= beatsPerBar + EPSILON) return [{ ...slot, symbol: cadence, chord }];
  const split = slot.beats - beatsPerBar;
  return [
    { ...slot, beats: split },
    { ...slot, beat: slot.beat + split, beats: beatsPerBar, symbol: cadence, chord },
  ];
}

/**
 * A section that hands over to a tonic-led section ends on a dominant-like chord (a half cadence). A
 * one-chord section (a short intro) keeps its chord: replacing it would leave no tonic to depart from.
 */
function addHalfCadences(
  slots: readonly ChordSlot[],
  cadence: string,
  tonic: number,
  beatsPerBar: number,
): ChordSlot[] {
  const result: ChordSlot[] = [];
  for (const [i, slot] of slots.entries()) {
    const next = slots[i + 1];
    const previous = slots[i - 1];
    if (!next || slot.section === next.section || previous?.section !== slot.section) {
      result.push(slot);
      continue;
    }
    if (rootDegree(next.chord, tonic) !== 0 || DOMINANT_LIKE.has(rootDegree(slot.chord, tonic))) {
      result.push(slot);
      continue;
    }
    // A section whose progression has just cadenced home (bVII i) ends there; turning that tonic into a
    // second bVII would leave the section on its cadence chord.
    if (rootDegree(slot.chord, tonic) === 0 && DOMINANT_LIKE.has(rootDegree(previous.chord, tonic))) {
      result.push(slot);
      continue;
    }
    result.push(...leadHome(result, slot, cadence, tonic, beatsPerBar));
  }
  return result;
}

/**
 * `slot` made to lead home with `cadence`, for appending to `before` (the slots so far). When the chord before
 * is the cadence chord already (i bIII bVII bVI), the two trade places (i bIII bVI bVII, the aeolian cadence)
 * rather than the cadence chord playing twice: held for a whole bar, it made the phrase heard in its own key
 * (i bIII bVII bVII in F# minor was heard as E major).
 */
function leadHome(
  before: ChordSlot[],
  slot: ChordSlot,
  cadence: string,
  tonic: number,
  beatsPerBar: number,
): ChordSlot[] {
  const last = before[before.length - 1];
  if (
    last &&
    last.symbol === cadence &&
    last.section === slot.section &&
    last.beats === slot.beats &&
    slot.beats <= beatsPerBar + EPSILON
  ) {
    before[before.length - 1] = { ...last, symbol: slot.symbol, chord: slot.chord };
    return [{ ...slot, symbol: last.symbol, chord: last.chord }];
  }
  return withCadence(slot, cadence, tonic, beatsPerBar);
}

interface EndingOptions {
  cadence: string;
  home: string;
  tonic: number;
  endingBeat: number;
  totalBeats: number;
  beatsPerBar: number;
  lastSection: number;
}

/**
 * Cuts the chords at the ending, adds the final tonic chord and makes the chord before it lead home. A seamless
 * loop has no ending (it starts at totalBeats): its last chord leads home to its first, which is the tonic.
 */
function addEnding(slots: ChordSlot[], o: EndingOptions): ChordSlot[] {
  const kept = slots
    .filter((slot) => slot.beat < o.endingBeat - EPSILON)
    .map((slot) => ({ ...slot, beats: Math.min(slot.beats, o.endingBeat - slot.beat) }));
  const final: ChordSlot = {
    beat: o.endingBeat,
    beats: o.totalBeats - o.endingBeat,
    symbol: o.home,
    chord: parseRoman(o.home, o.tonic),
    section: o.lastSection,
  };
  const before = kept[kept.length - 1];
  if (before && !DOMINANT_LIKE.has(rootDegree(before.chord, o.tonic))) {
    kept.pop();
    kept.push(...leadHome(kept, before, o.cadence, o.tonic, o.beatsPerBar));
  }
  return o.endingBeat < o.totalBeats - EPSILON ? [...kept, final] : kept;
}
