/**
 * Writes lyrics for a song plan from the prompt's themes and mood. Lines come from templates whose slots
 * are filled from the theme's words; each line is built backwards from its end word, so rhymes are chosen
 * first (end words grouped by their CMU rhyme part) and the rest of the line is fitted to the section's
 * syllable range. Among lines that fit, the one whose stresses alternate best wins, so stressed syllables
 * can land on strong beats. The chorus is written once and repeated; its first line, the hook, comes back
 * as its last.
 */
import type { Random } from '../random.ts';
import type { LyricLine, LyricSection, LyricSectionKind, Lyrics } from '../types.ts';
import { chooseThemes, END_KINDS, loadBanks, type EndKind, type WordSet } from './bank.ts';
import { lookupPhones } from './dictionary.ts';
import { parseLine } from './parse.ts';
import { parsePhones, rhymePart } from './phones.ts';
import { pronounceWord } from './pronounce.ts';

export interface LyricPlan {
  sections: { kind: LyricSectionKind; lines: number; syllables: { min: number; max: number } }[];
}

export interface WriteInput {
  prompt: string;
  /** -1 sad … 1 happy. */
  valence: number;
  /** -1 calm … 1 energetic. */
  arousal: number;
  plan: LyricPlan;
}

interface Ending {
  /** One word or a short phrase ("all day"); it rhymes by its last word. */
  word: string;
  kind: EndKind;
  rhyme: string;
  themed: boolean;
}

interface Range {
  min: number;
  max: number;
}

/** Everything one song's lines are written from. */
interface Palette {
  themed: WordSet[];
  general: WordSet;
  templates: Record<EndKind, string[]>;
  /** Phrases that open a long line. */
  openers: string[];
  fillers: string[];
  /** End words by rhyme part. */
  groups: Map<string, Ending[]>;
  /** End words already used at a line end, so verses do not repeat each other. */
  usedEnds: Set<string>;
  usedLines: Set<string>;
  /** How often each template has been used, so a song does not say "I can see the ..." in every verse. */
  templateUses: Map<string, number>;
}

/** Candidate lines tried per line; enough for a good stress fit, few enough to stay fast. */
const ATTEMPTS = 40;
const GOOD_ENOUGH = 6;

export function writeLyrics(input: WriteInput, random: Random): Lyrics {
  validatePlan(input.plan);
  const palette = buildPalette(input);
  const choruses = input.plan.sections.filter((s) => s.kind === 'chorus' && s.lines > 0);
  const chorus = choruses.length === 0 ? [] : writeChorus(choruses[0].lines, chorusRange(choruses.map((s) => s.syllables)), palette, random.fork('chorus'));
  const sections: LyricSection[] = input.plan.sections.map((spec, index) => {
    if (spec.kind === 'chorus') {
      // Every chorus sings the same lines; a chorus planned shorter or longer cycles through them.
      return { kind: 'chorus', lines: Array.from({ length: spec.lines }, (_, i) => chorus[i % Math.max(1, chorus.length)]).filter(Boolean) };
    }
    return { kind: spec.kind, lines: writeSection(spec.lines, spec.syllables, palette, random.fork(`${spec.kind}-${index}`)) };
  });
  return { source: 'written', sections };
}

/** The chorus is sung the same everywhere, so it fits every chorus's range when they overlap, else the first. */
function chorusRange(ranges: readonly Range[]): Range {
  const min = Math.max(...ranges.map((r) => r.min));
  const max = Math.min(...ranges.map((r) => r.max));
  return min <= max ? { min, max } : ranges[0];
}

function validatePlan(plan: LyricPlan): void {
  for (const s of plan.sections) {
    if (!Number.isInteger(s.lines) || s.lines < 0) throw new RangeError(`A lyric section needs a whole number of lines, got ${s.lines}`);
    if (!(s.syllables.min >= 1 && s.syllables.max >= s.syllables.min)) {
      throw new RangeError(`A lyric line needs 1 <= min <= max syllables, got ${s.syllables.min}..${s.syllables.max}`);
    }
  }
}

function buildPalette(input: WriteInput): Palette {
  const banks = loadBanks();
  const { themes } = chooseThemes(input.prompt, input.valence, input.arousal);
  const themed = themes.map((name) => banks.themes[name]).filter((t) => t !== undefined);
  // Happy songs leave out the sad templates and the other way round; in between, both.
  const allowed = (template: string) => !(template.startsWith('-|') && input.valence > 0.2) && !(template.startsWith('+|') && input.valence < -0.2);
  const forMood = (list: readonly string[]) => list.filter(allowed).map((t) => t.replace(/^[+-]\|/, ''));
  const templates = Object.fromEntries(END_KINDS.map((kind) => [kind, forMood(banks.templates[kind])])) as Record<EndKind, string[]>;
  const groups = new Map<string, Ending[]>();
  const add = (set: WordSet, isThemed: boolean) => {
    for (const kind of END_KINDS) {
      for (const word of set.ends[kind]) {
        const rhyme = rhymeOf(word);
        const group = groups.get(rhyme) ?? [];
        const same = group.find((e) => e.word === word && e.kind === kind);
        if (same === undefined) group.push({ word, kind, rhyme, themed: isThemed });
        else same.themed ||= isThemed;
        groups.set(rhyme, group);
      }
    }
  };
  themed.forEach((set) => add(set, true));
  add(banks.general, false);
  return { themed, general: banks.general, templates, openers: forMood(banks.openers), fillers: banks.fillers, groups, usedEnds: new Set(), usedLines: new Set(), templateUses: new Map() };
}

/** The CMU rhyme part of a phrase's last word. Bank words are all in the dictionary (a test checks). */
function rhymeOf(phrase: string): string {
  const last = phrase.split(' ').pop() ?? phrase;
  const phones = lookupPhones(last);
  if (phones === undefined) throw new Error(`Bank word "${last}" is not in the pronouncing dictionary`);
  return rhymePart(parsePhones(phones));
}

function writeChorus(count: number, range: Range, palette: Palette, random: Random): LyricLine[] {
  // The hook carries the song's theme: its rhyme group holds a theme word whenever the prompt has themes.
  // A different end word for the hook and each middle line where the group has them, two at least, so the
  // chorus rhymes rather than repeating one word.
  const ranked = [3, 2, 1].filter((need) => need <= Math.max(1, count - 1)).flatMap((need) => rankedGroups(palette, random, need));
  const themedFirst = [...ranked.filter((g) => g.some((e) => e.themed)), ...ranked.filter((g) => !g.some((e) => e.themed))];
  for (const group of themedFirst) {
    const endings = orderEndings(group, palette, random);
    const hookEnding = endings.find((e) => e.themed) ?? endings[0];
    const hook = makeLine(hookEnding, range, palette, random);
    if (hook === null) continue;
    palette.usedLines.add(hook);
    const lines = [hook];
    // The middle lines rhyme with the hook, so with the hook again at the end every pair rhymes.
    for (let i = 1; i < count - 1; i++) {
      const others = endings.filter((e) => e.word !== hookEnding.word);
      const ending = others.length > 0 ? others[(i - 1) % others.length] : hookEnding;
      lines.push(makeLine(ending, range, palette, random) ?? hook);
      palette.usedLines.add(lines[i]);
    }
    if (count >= 2) lines.push(hook);
    endings.forEach((e) => palette.usedEnds.add(e.word));
    return lines.map(parseLine);
  }
  return fallbackLines(count, range, palette).map(parseLine);
}

function writeSection(count: number, range: Range, palette: Palette, random: Random): LyricLine[] {
  if (count === 0) return [];
  const slotOf = rhymeSlots(count, random.chance(0.5) ? 'AABB' : 'ABAB');
  const texts: string[] = new Array<string>(count);
  const slots = Math.max(...slotOf) + 1;
  for (let slot = 0; slot < slots; slot++) {
    const lineIndexes = slotOf.flatMap((s, i) => (s === slot ? [i] : []));
    const lines = linesForSlot(lineIndexes.length, range, palette, random);
    lineIndexes.forEach((lineIndex, k) => (texts[lineIndex] = lines[k]));
  }
  return texts.map(parseLine);
}

/** Which rhyme slot each line belongs to: AABB pairs neighbours, ABAB alternates in blocks of four. */
function rhymeSlots(count: number, scheme: 'AABB' | 'ABAB'): number[] {
  const slots: number[] = [];
  for (let i = 0; i < count; i++) {
    const inFullBlock = scheme === 'ABAB' && i < count - (count % 4);
    slots.push(inFullBlock ? Math.floor(i / 4) * 2 + (i % 2) : Math.floor(i / 2));
  }
  // An odd last line rhymes with the line before it rather than standing alone.
  if (count % 2 === 1 && count > 1) slots[count - 1] = slots[count - 2];
  return slots;
}

/** `count` lines that rhyme with each other, ending in unused words where possible. */
function linesForSlot(count: number, range: Range, palette: Palette, random: Random): string[] {
  for (const group of rankedGroups(palette, random, Math.min(count, 2))) {
    const endings = orderEndings(group, palette, random);
    const lines: string[] = [];
    for (const ending of endings) {
      if (lines.length === count) break;
      const line = makeLine(ending, range, palette, random);
      if (line === null) continue;
      lines.push(line);
      palette.usedLines.add(line);
      palette.usedEnds.add(ending.word);
    }
    // A group with fewer fitting words than lines repeats its words in new templates.
    for (let k = 0; lines.length > 0 && lines.length < count && k < endings.length * 3; k++) {
      const line = makeLine(endings[k % endings.length], range, palette, random);
      if (line !== null) lines.push(line);
    }
    if (lines.length === count) return lines;
  }
  return fallbackLines(count, range, palette);
}

/** Rhyme groups with at least `need` unused words, in a seeded order that favours the prompt's themes. */
function rankedGroups(palette: Palette, random: Random, need: number): Ending[][] {
  const all = [...palette.groups.values()];
  const fresh = all.filter((g) => new Set(g.filter((e) => !palette.usedEnds.has(e.word)).map((e) => e.word)).size >= need);
  const pool = fresh.length > 0 ? fresh : all.filter((g) => new Set(g.map((e) => e.word)).size >= need);
  const weight = (g: Ending[]) => 1 + 6 * g.filter((e) => e.themed && !palette.usedEnds.has(e.word)).length;
  const ranked: Ending[][] = [];
  const remaining = [...pool];
  while (remaining.length > 0) {
    const chosen = random.weighted(remaining, remaining.map(weight));
    ranked.push(chosen);
    remaining.splice(remaining.indexOf(chosen), 1);
  }
  return ranked;
}

/** Unused themed words first, then unused others, then used ones; one entry per word. */
function orderEndings(group: readonly Ending[], palette: Palette, random: Random): Ending[] {
  const shuffled = shuffle(group, random);
  const rank = (e: Ending) => (palette.usedEnds.has(e.word) ? 2 : e.themed ? 0 : 1);
  const seen = new Set<string>();
  return shuffled
    .sort((a, b) => rank(a) - rank(b))
    .filter((e) => (seen.has(e.word) ? false : (seen.add(e.word), true)));
}

/** Fills templates for one end word until a few fit the range, then keeps the best stress pattern. */
function makeLine(ending: Ending, range: Range, palette: Palette, random: Random): string | null {
  let best: { words: string[]; score: number; template: string } | null = null;
  let found = 0;
  for (let attempt = 0; attempt < ATTEMPTS && found < GOOD_ENOUGH; attempt++) {
    const taken = new Set(ending.word.split(' '));
    const template = random.pick(palette.templates[ending.kind]);
    let words = fillTemplate(template, ending.word, taken, palette, random).split(' ');
    // Long lines open with a phrase ("In the golden sun, we will shine") rather than a pile of fillers.
    // (Not for the two-word templates meant for very short lines: "Look at the road, my sand" reads badly.)
    for (let k = 0; k < 2 && words.length >= 3 && syllablesOf(words) < range.min - 1; k++) {
      const opener = fillTemplate(random.pick(palette.openers), '', taken, palette, random).split(' ');
      if (syllablesOf(opener) + syllablesOf(words) > range.max) break;
      opener[opener.length - 1] += ',';
      words = [...opener, ...words];
    }
    const fitted = padToRange(fixArticles(words), range, palette, random, 1);
    if (fitted === null || palette.usedLines.has(fitted.join(' '))) continue;
    found++;
    // A stress clash costs as much as a template used twice already.
    const score = stressScore(fitted) + (palette.templateUses.get(template) ?? 0) / 2;
    if (best === null || score < best.score) best = { words: fitted, score, template };
  }
  if (best !== null) {
    palette.templateUses.set(best.template, (palette.templateUses.get(best.template) ?? 0) + 1);
    return capitalize(best.words.join(' '));
  }
  const bare = padToRange(ending.word.split(' '), range, palette, random, Infinity);
  return bare === null ? null : capitalize(bare.join(' '));
}

/** Fills {N} {A} {V} {G} from the theme words (never one already in `taken`) and E with the end word. */
function fillTemplate(template: string, end: string, taken: Set<string>, palette: Palette, random: Random): string {
  return template.replace(/\{([NAVG])\}|\bE\b/g, (_, slot: 'N' | 'A' | 'V' | 'G' | undefined) => {
    if (slot === undefined) return end;
    // Mostly the prompt's theme words, sometimes the general ones, never a word already in the line.
    const source = palette.themed.length > 0 && random.chance(0.8) ? random.pick(palette.themed) : palette.general;
    const choices = source[slot].filter((w) => !taken.has(w));
    const word = choices.length > 0 ? random.pick(choices) : random.pick(palette.general[slot]);
    taken.add(word);
    return word;
  });
}

/**
 * Adds unstressed fillers ("oh", "and", "so") in front of a short line; null when it is too long or would
 * need more than `maxFillers` (stacked fillers read badly, another template usually fits better).
 */
function padToRange(words: string[], range: Range, palette: Palette, random: Random, maxFillers: number): string[] | null {
  let count = syllablesOf(words);
  if (count > range.max || range.min - count > maxFillers) return null;
  const padded = [...words];
  while (count < range.min) {
    const filler = random.pick(palette.fillers.filter((f) => f !== padded[0]?.toLowerCase()));
    padded.unshift(filler);
    count += 1;
  }
  return padded;
}

/** Clashes (two stressed syllables in a row) and lapses (three unstressed) both cost a point. */
function stressScore(words: readonly string[]): number {
  const stresses = words.flatMap((w) => pronounced(w).syllables.map((s) => s.stress > 0));
  let score = 0;
  for (let i = 1; i < stresses.length; i++) {
    if (stresses[i] && stresses[i - 1]) score++;
    if (i >= 2 && !stresses[i] && !stresses[i - 1] && !stresses[i - 2]) score++;
  }
  return score;
}

/** "a open road" -> "an open road", by the next word's first sound, not its spelling. */
function fixArticles(words: string[]): string[] {
  return words.map((w, i) => (w === 'a' && i + 1 < words.length && pronounced(words[i + 1]).syllables[0]?.onset.length === 0 ? 'an' : w));
}

const syllablesOf = (words: readonly string[]): number => words.reduce((sum, w) => sum + pronounced(w).syllables.length, 0);

/** Bank words repeat across thousands of candidates: pronounce each once. */
const pronunciations = new Map<string, ReturnType<typeof pronounceWord>>();
function pronounced(word: string): ReturnType<typeof pronounceWord> {
  let entry = pronunciations.get(word);
  if (entry === undefined) {
    entry = pronounceWord(word);
    pronunciations.set(word, entry);
  }
  return entry;
}

/** Only reached when the range is too tight for every template: the shortest end words, padded. */
function fallbackLines(count: number, range: Range, palette: Palette): string[] {
  const endings = [...palette.groups.values()].flat().sort((a, b) => syllablesOf(a.word.split(' ')) - syllablesOf(b.word.split(' ')));
  const shortest = endings[0];
  const words = shortest.word.split(' ');
  while (syllablesOf(words) < range.min) words.unshift('oh');
  return Array.from({ length: count }, () => capitalize(words.join(' ')));
}

const capitalize = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);

function shuffle<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
