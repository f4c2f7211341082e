/**
 * Writes lyrics for a song plan from the prompt's themes and mood. Lines come from templates whose slots
 * are filled from the theme's words; each line is built backwards from its end word, so rhymes are chosen
 * first (end words grouped by their CMU rhyme part) and the rest of the line is fitted to the section's
 * syllable range. Among lines that fit, the one whose stresses alternate best wins, so stressed syllables
 * can land on strong beats. The chorus is written once and repeated; its first line, the hook, comes back
 * as its last. Words are judged by ./wording.ts: nouns fit their articles, words fit the mood and never
 * contradict each other in a line, a section keeps one narrator ("I" or "we") and opens few lines with a filler.
 */
import { at } from '../checked.ts';
import type { Random } from '../random.ts';
import type { LyricLine, LyricSection, LyricSectionKind, Lyrics, Subjects } from '../types.ts';
import { chooseThemes, END_KINDS, loadBanks, type EndKind, type WordSet } from './bank.ts';
import { lookupPhones } from './dictionary.ts';
import { parseLine } from './parse.ts';
import { parsePhones, rhymePart } from './phones.ts';
import { FUNCTION_WORDS, pronounceWord } from './pronounce.ts';
import {
  createWording,
  isFeeling,
  nounNeeds,
  opensWithFiller,
  personOf,
  type NounNeed,
  type Person,
  type Wording,
} from './wording.ts';

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
  /** Names, occasion and places to sing: the chorus greets the person and the occasion, the first verse opens on the place. */
  subjects?: Subjects;
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

/** A line template with what it needs: who narrates it and which noun slots must be countable. */
interface Template {
  text: string;
  person: Person;
  /** Its adjectives describe a person or a heart ("you make me feel so E"), so "wide" or "dusty" will not do. */
  feeling: boolean;
  needs: { slots: NounNeed[]; end: NounNeed };
}

/** How one section is being written: its narrator, and how many more lines may open with a filler. */
interface Narrator {
  person: 'I' | 'we';
  fillersLeft: number;
  /** First words of the section's lines so far, so lines do not all open alike. */
  openings: Set<string>;
  /** Content words the section has sung, so its lines do not all say "open" and "simple". */
  words: Set<string>;
  /** Writing the hook: a hook template preferred, short, no opener phrase, never a filler opening. */
  hook?: boolean;
}

/** Everything one song's lines are written from. */
interface Palette {
  themed: WordSet[];
  general: WordSet;
  templates: Record<EndKind, Template[]>;
  hooks: Record<EndKind, Template[]>;
  /** Phrases that open a long line. */
  openers: Template[];
  fillers: string[];
  wording: Wording;
  valence: number;
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
  const chorusRandom = random.fork('chorus');
  const chorusSyllables = chorusRange(choruses.map((s) => s.syllables));
  const firstChorus = choruses[0];
  const chorus =
    firstChorus === undefined
      ? []
      : writeChorus(
          firstChorus.lines,
          chorusSyllables,
          palette,
          chorusRandom,
          newNarrator(firstChorus.lines, palette, chorusRandom),
        );
  const dedication = input.subjects ? dedicationLines(input.subjects) : [];
  // The dedication is sung in every chorus: the line after the hook, so the hook still opens and closes it.
  if (dedication.length > 0 && chorus.length > 0) {
    const line = fitLine(dedication, chorusSyllables, palette, chorusRandom);
    if (line !== null) chorus[chorus.length >= 3 ? 1 : 0] = parseLine(line);
  }
  const sections: LyricSection[] = input.plan.sections.map((spec, index) => {
    if (spec.kind === 'chorus') {
      // Every chorus sings the same lines; a chorus planned shorter or longer cycles through them.
      return {
        kind: 'chorus',
        lines: Array.from({ length: spec.lines }, (_, i) => chorus[i % Math.max(1, chorus.length)]).filter(
          (line): line is LyricLine => line !== undefined,
        ),
      };
    }
    const sectionRandom = random.fork(`${spec.kind}-${index}`);
    return {
      kind: spec.kind,
      lines: writeSection(
        spec.lines,
        spec.syllables,
        palette,
        sectionRandom,
        newNarrator(spec.lines, palette, sectionRandom),
      ),
    };
  });
  // A place opens the first verse; with no chorus the dedication opens the first section instead.
  const places = input.subjects ? placeLines(input.subjects) : [];
  const opening = [...(chorus.length === 0 ? [dedication] : []), places].filter((list) => list.length > 0);
  const verses = input.plan.sections
    .map((spec, index) => ({ spec, index }))
    .filter(({ spec }) => spec.kind !== 'chorus' && spec.lines > 0);
  opening.forEach((variants, k) => {
    const target = verses[k];
    if (target === undefined) return;
    const line = fitLine(variants, target.spec.syllables, palette, random.fork(`subject-${k}`));
    if (line !== null) at(sections, target.index).lines[0] = parseLine(line);
  });
  return { source: 'written', sections };
}

/** How an occasion is greeted, with the name (N) and without. */
const OCCASION_LINES: Record<string, { named: string[]; plain: string[] }> = {
  birthday: {
    named: ['Happy birthday, dear N', 'Happy birthday, N', 'N, happy birthday'],
    plain: ['Happy birthday to you', 'Happy birthday'],
  },
  wedding: {
    named: ['N, on your wedding day', 'On your wedding day, N'],
    plain: ['On your wedding day', 'Our wedding day'],
  },
  anniversary: {
    named: ['Happy anniversary, N', 'Another year with you, N'],
    plain: ['Happy anniversary', 'Another year with you'],
  },
  christmas: {
    named: ['Merry Christmas, N', 'Merry Christmas, dear N'],
    plain: ['Merry Christmas to you', 'Merry Christmas'],
  },
  'new year': {
    named: ['Happy new year, N', 'A happy new year, N'],
    plain: ['Happy new year to you', 'Happy new year'],
  },
  graduation: {
    named: ['N, on your graduation day', 'Graduation day, N'],
    plain: ['On graduation day', 'Graduation day'],
  },
  valentine: { named: ['Be my valentine, N', 'N, my valentine'], plain: ['Be my valentine', 'My valentine'] },
  retirement: { named: ['Happy retirement, N', 'Enjoy the days, N'], plain: ['Happy retirement', 'Enjoy the days'] },
  funeral: {
    named: ['N, we will remember you', 'We remember you, N'],
    plain: ['We will remember you', 'Remember you'],
  },
};

/** Variants of the line that names the person and the occasion, best first; none when the prompt names neither. */
export function dedicationLines(subjects: Subjects): string[] {
  const name = subjects.names.length >= 2 ? `${subjects.names[0]} and ${subjects.names[1]}` : subjects.names[0];
  const occasion = subjects.occasion ? OCCASION_LINES[subjects.occasion] : undefined;
  const plainFor = subjects.relation ? [`This song is for ${subjects.relation}`, `For ${subjects.relation}`] : [];
  if (occasion && name)
    return [
      ...occasion.named.map((l) => l.replace('N', name)),
      ...occasion.named.map((l) => l.replace('N', at(subjects.names, 0))),
    ];
  if (occasion) return [...occasion.plain, ...plainFor];
  if (name)
    return [`This song is for you, ${name}`, `This one is for ${name}`, `${name}, this is for you`, `For ${name}`];
  return plainFor;
}

/** Variants of a line that names the place, best first. */
export function placeLines(subjects: Subjects): string[] {
  const place = subjects.places[0];
  if (!place) return [];
  return [
    `Take me back to ${place} again`,
    `Back in ${place} again`,
    `${place}, I can see your lights`,
    `Take me to ${place}`,
    `Back in ${place}`,
    `${place}`,
  ];
}

/** First words of the dedication and place lines, lower-cased after a filler. */
const OWN_WORDS = new Set([
  'Happy',
  'Merry',
  'Take',
  'Back',
  'This',
  'On',
  'For',
  'Be',
  'Another',
  'Graduation',
  'We',
  'Remember',
  'Enjoy',
  'My',
  'Our',
  'A',
]);

/** The first variant that fits the range, padded with fillers when short; the shortest when none fits; null when even that is too long. */
function fitLine(variants: readonly string[], range: Range, palette: Palette, random: Random): string | null {
  const count = (line: string) => syllablesOf(line.replace(/,/g, '').split(' '));
  const fitting = variants.find((v) => count(v) >= range.min && count(v) <= range.max);
  if (fitting) return fitting;
  const short = variants.filter((v) => count(v) < range.min).sort((a, b) => count(b) - count(a))[0];
  if (short === undefined) return null;
  // A filler goes in front: "Oh, happy birthday", keeping a name's capital.
  const split = short.split(' ');
  const first = at(split, 0);
  const words = [OWN_WORDS.has(first) ? first.toLowerCase() : first, ...split.slice(1)];
  const padded = padToRange(words, range, palette, random, Infinity);
  if (padded !== null) return capitalize(padded.join(' '));
  return null;
}

/** The chorus is sung the same everywhere, so it fits every chorus's range when they overlap, else the first. */
function chorusRange(ranges: readonly Range[]): Range {
  const min = Math.max(...ranges.map((r) => r.min));
  const max = Math.min(...ranges.map((r) => r.max));
  return min <= max ? { min, max } : at(ranges, 0);
}

/** Sad songs lean on "I", bright ones on "we"; at most one line in four opens with "oh", "so", "now" or "and". */
function newNarrator(lines: number, palette: Palette, random: Random): Narrator {
  const person = random.chance(palette.valence < 0 ? 0.7 : 0.4) ? 'I' : 'we';
  return { person, fillersLeft: Math.floor(lines / 4), openings: new Set(), words: new Set() };
}

function validatePlan(plan: LyricPlan): void {
  for (const s of plan.sections) {
    if (!Number.isInteger(s.lines) || s.lines < 0)
      throw new RangeError(`A lyric section needs a whole number of lines, got ${s.lines}`);
    if (!(s.syllables.min >= 1 && s.syllables.max >= s.syllables.min)) {
      throw new RangeError(`A lyric line needs 1 <= min <= max syllables, got ${s.syllables.min}..${s.syllables.max}`);
    }
  }
}

function buildPalette(input: WriteInput): Palette {
  const banks = loadBanks();
  const wording = createWording(banks, input.valence, input.arousal);
  const { themes } = chooseThemes(input.prompt, input.valence, input.arousal);
  const themed = themes
    .map((name) => banks.themes[name])
    .filter((t) => t !== undefined)
    .map((set) => forMoodWords(set, wording));
  const general = forMoodWords(banks.general, wording);
  // A song leans one way: happy-marked templates only above zero valence, sad-marked ones only below, so a
  // middling song never has "After it all" and "we are young and loud" in one line.
  const allowed = (template: string) =>
    !(template.startsWith('-|') && input.valence >= 0) && !(template.startsWith('+|') && input.valence <= 0);
  const forMood = (list: readonly string[]): Template[] =>
    list
      .filter(allowed)
      .map((t) => t.replace(/^[+-]\|/, ''))
      .map((text) => ({ text, person: personOf(text), needs: nounNeeds(text), feeling: isFeeling(text) }));
  const templates = Object.fromEntries(END_KINDS.map((kind) => [kind, forMood(banks.templates[kind])])) as Record<
    EndKind,
    Template[]
  >;
  const hooks = Object.fromEntries(END_KINDS.map((kind) => [kind, forMood(banks.hooks[kind])])) as Record<
    EndKind,
    Template[]
  >;
  const groups = new Map<string, Ending[]>();
  const add = (set: WordSet, isThemed: boolean) => {
    for (const kind of END_KINDS) {
      for (const word of set.ends[kind]) {
        // Rhyme fillers ("sign", "floor") only end a line in a theme that means them.
        if (!isThemed && wording.isWeakEnd(lastWord(word))) continue;
        const rhyme = rhymeOf(word);
        const group = groups.get(rhyme) ?? [];
        const same = group.find((e) => e.word === word && e.kind === kind);
        if (same === undefined) group.push({ word, kind, rhyme, themed: isThemed });
        else same.themed ||= isThemed;
        groups.set(rhyme, group);
      }
    }
  };
  for (const set of themed) add(set, true);
  add(general, false);
  return {
    themed,
    general,
    templates,
    hooks,
    openers: forMood(banks.openers),
    fillers: banks.fillers,
    wording,
    valence: input.valence,
    groups,
    usedEnds: new Set(),
    usedLines: new Set(),
    templateUses: new Map(),
  };
}

/** The words of a set that suit the mood; a list the mood would empty keeps its words rather than none. */
function forMoodWords(set: WordSet, wording: Wording): WordSet {
  const keep = (list: readonly string[]) =>
    list.some((w) => wording.suits(lastWord(w))) ? list.filter((w) => wording.suits(lastWord(w))) : [...list];
  const ends = Object.fromEntries(
    END_KINDS.map((kind) => [kind, set.ends[kind].filter((w) => wording.suits(lastWord(w)))]),
  ) as Record<EndKind, string[]>;
  return { N: keep(set.N), P: keep(set.P), A: keep(set.A), V: keep(set.V), G: keep(set.G), ends };
}

const lastWord = (phrase: string): string => phrase.split(' ').pop() ?? phrase;

/** The CMU rhyme part of a phrase's last word. Bank words are all in the dictionary (a test checks). */
function rhymeOf(phrase: string): string {
  const last = phrase.split(' ').pop() ?? phrase;
  const phones = lookupPhones(last);
  if (phones === undefined) throw new Error(`Bank word "${last}" is not in the pronouncing dictionary`);
  return rhymePart(parsePhones(phones));
}

function writeChorus(count: number, range: Range, palette: Palette, random: Random, narrator: Narrator): LyricLine[] {
  // The hook carries the song's theme: its rhyme group holds a theme word whenever the prompt has themes.
  // A different end word for the hook and each middle line where the group has them, two at least, so the
  // chorus rhymes rather than repeating one word.
  const ranked = [3, 2, 1]
    .filter((need) => need <= Math.max(1, count - 1))
    .flatMap((need) => rankedGroups(palette, random, need));
  const themedFirst = [
    ...ranked.filter((g) => g.some((e) => e.themed)),
    ...ranked.filter((g) => !g.some((e) => e.themed)),
  ];
  for (const group of themedFirst) {
    const endings = orderEndings(group, palette, random);
    const hookEnding = endings.find((e) => e.themed) ?? at(endings, 0);
    const hook = makeLine(hookEnding, range, palette, random, { ...narrator, hook: true });
    if (hook === null) continue;
    palette.usedLines.add(hook);
    narrator.openings.add(firstWord(hook));
    const lines = [hook];
    // The middle lines rhyme with the hook, so with the hook again at the end every pair rhymes.
    for (let i = 1; i < count - 1; i++) {
      const others = endings.filter((e) => e.word !== hookEnding.word);
      const ending = others.length > 0 ? at(others, (i - 1) % others.length) : hookEnding;
      const line = makeLine(ending, range, palette, random, narrator) ?? hook;
      lines.push(line);
      palette.usedLines.add(line);
    }
    if (count >= 2) lines.push(hook);
    for (const e of endings) palette.usedEnds.add(e.word);
    return lines.map(parseLine);
  }
  return fallbackLines(count, range, palette).map(parseLine);
}

function writeSection(count: number, range: Range, palette: Palette, random: Random, narrator: Narrator): LyricLine[] {
  if (count === 0) return [];
  const slotOf = rhymeSlots(count, random.chance(0.5) ? 'AABB' : 'ABAB');
  const texts: string[] = new Array<string>(count);
  const slots = Math.max(...slotOf) + 1;
  for (let slot = 0; slot < slots; slot++) {
    const lineIndexes = slotOf.flatMap((s, i) => (s === slot ? [i] : []));
    const lines = linesForSlot(lineIndexes.length, range, palette, random, narrator);
    for (const [k, lineIndex] of lineIndexes.entries()) texts[lineIndex] = at(lines, k);
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
  if (count % 2 === 1 && count > 1) slots[count - 1] = at(slots, count - 2);
  return slots;
}

/** `count` lines that rhyme with each other, ending in unused words where possible. */
function linesForSlot(count: number, range: Range, palette: Palette, random: Random, narrator: Narrator): string[] {
  for (const group of rankedGroups(palette, random, Math.min(count, 2))) {
    const endings = orderEndings(group, palette, random);
    const lines: string[] = [];
    for (const ending of endings) {
      if (lines.length === count) break;
      const line = makeLine(ending, range, palette, random, narrator);
      if (line === null) continue;
      lines.push(line);
      palette.usedLines.add(line);
      palette.usedEnds.add(ending.word);
    }
    // A group with fewer fitting words than lines repeats its words in new templates.
    for (let k = 0; lines.length > 0 && lines.length < count && k < endings.length * 3; k++) {
      const line = makeLine(at(endings, k % endings.length), range, palette, random, narrator);
      if (line !== null) lines.push(line);
    }
    if (lines.length === count) return lines;
  }
  return fallbackLines(count, range, palette);
}

/** Rhyme groups with at least `need` unused words, in a seeded order that favours the prompt's themes. */
function rankedGroups(palette: Palette, random: Random, need: number): Ending[][] {
  const all = [...palette.groups.values()];
  const fresh = all.filter(
    (g) => new Set(g.filter((e) => !palette.usedEnds.has(e.word)).map((e) => e.word)).size >= need,
  );
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
    .filter((e) => {
      if (seen.has(e.word)) return false;
      seen.add(e.word);
      return true;
    });
}

/** Where an article-less noun goes by itself: "take me back home", "all the way home", "follow the river home". */
const HOMEWARD = /\b(back|way|me|\{N\}) to the E\b/;

/** Words that may stand before an adjective inserted in front of the end noun ("the road" -> "the open road"). */
const DETERMINERS = new Set(['the', 'my', 'your', 'our', 'a']);

/**
 * Fills templates for one end word until a few fit the range, then keeps the best: stresses that alternate,
 * templates not used much yet, no filler opening beyond the section's allowance, openings that vary.
 */
function makeLine(ending: Ending, range: Range, palette: Palette, random: Random, narrator: Narrator): string | null {
  const endTokens = ending.word.split(' ');
  const massEnd = ending.kind === 'n' && palette.wording.isMass(lastWord(ending.word));
  // "Home" goes without "the": "take me home", "you are my home", never "waiting for the home".
  const articleless = ending.kind === 'n' && palette.wording.isBare(ending.word);
  const fits = (t: Template) =>
    (t.person === 'none' || t.person === narrator.person) &&
    !(massEnd && t.needs.end === 'count') &&
    !(t.feeling && ending.kind === 'a' && !palette.wording.canFeel(ending.word)) &&
    !(articleless && !HOMEWARD.test(t.text) && !/\bmy E\b/.test(t.text)) &&
    !t.text.split(' ').some((w) => endTokens.includes(w.replace(/[?,]/g, '')));
  // A hook prefers the short hook templates but may use any, so it never needs a filler to fit.
  const hooks = narrator.hook === true ? palette.hooks[ending.kind].filter(fits) : [];
  const templates = [...hooks, ...hooks, ...palette.templates[ending.kind].filter(fits)];
  const openers = palette.openers.filter((o) => o.person === 'none' || o.person === narrator.person);
  let best: { words: string[]; score: number; template: string; opener: string | null } | null = null;
  let found = 0;
  for (let attempt = 0; templates.length > 0 && attempt < ATTEMPTS && found < GOOD_ENOUGH; attempt++) {
    const taken = new Set(endTokens);
    const template = random.pick(templates);
    const text = articleless ? template.text.replace(HOMEWARD, '$1 E') : template.text;
    let words = fillTemplate({ ...template, text }, ending.word, taken, palette, random).split(' ');
    // Long lines open with a phrase ("In the golden sun, we will shine") rather than a pile of fillers.
    // (Not for the two-word templates meant for very short lines: "Look at the road, my sand" reads badly.)
    // (Nor before a template that opens on a bare slot: "When the rain is gentle, day so old".)
    // One opener at most: "Look at the road, in the sweet heart, the kiss is true" stacks two scenes.
    let opener: Template | null = null;
    if (
      words.length >= 3 &&
      !template.text.startsWith('{') &&
      !opensWithFiller(at(words, 0)) &&
      syllablesOf(words) < range.min - 1
    ) {
      const candidate = random.pick(openers);
      const phrase = fillTemplate(candidate, '', taken, palette, random).split(' ');
      // "Under the fire, under the hand" says one thing twice.
      if (
        at(candidate.text.split(' '), 0) !== at(words, 0).toLowerCase() &&
        syllablesOf(phrase) + syllablesOf(words) <= range.max
      ) {
        phrase[phrase.length - 1] += ',';
        words = [...phrase, ...words];
        opener = candidate;
      }
    }
    const opened = opener !== null;
    words = widenEnd(words, ending, range, palette, random, taken);
    const fitted = padToRange(fixArticles(words), range, palette, random, 1);
    if (
      fitted === null ||
      palette.usedLines.has(fitted.join(' ')) ||
      palette.wording.contradicts(fitted) ||
      palette.wording.echoes(fitted)
    )
      continue;
    const filler = opensWithFiller(at(fitted, 0));
    // Past the section's allowance a filler opening is not an option: another template or end word is.
    const fillersAllowed = narrator.hook !== true && narrator.fillersLeft > 0;
    if (filler && !fillersAllowed) continue;
    found++;
    const score =
      stressScore(fitted) +
      // A stress clash costs as much as a template used twice already.
      (palette.templateUses.get(template.text) ?? 0) / 2 +
      (filler ? 1.5 : 0) +
      (narrator.openings.has(at(fitted, 0).toLowerCase()) ? 1 : 0) +
      // An opener phrase pads a line; a template that fits on its own reads better.
      (opener === null ? 0 : 0.75 + (palette.templateUses.get(opener.text) ?? 0) / 2) +
      0.4 * fitted.filter((w) => narrator.words.has(contentWord(w))).length +
      // A hook is short and plain: the title line people remember.
      (narrator.hook === true
        ? (opened ? 3 : 0) + (hooks.includes(template) ? 0 : 1) + (syllablesOf(fitted) - range.min) * 0.3
        : 0);
    if (best === null || score < best.score)
      best = { words: fitted, score, template: template.text, opener: opener?.text ?? null };
  }
  if (best !== null) {
    for (const used of [best.template, best.opener])
      if (used !== null) palette.templateUses.set(used, (palette.templateUses.get(used) ?? 0) + 1);
    for (const word of best.words) if (contentWord(word) !== '') narrator.words.add(contentWord(word));
    const line = capitalize(best.words.join(' '));
    if (opensWithFiller(line)) narrator.fillersLeft--;
    narrator.openings.add(firstWord(line));
    return line;
  }
  const bare = padToRange(endTokens, range, palette, random, Infinity);
  if (bare === null || (opensWithFiller(at(bare, 0)) && (narrator.hook === true || narrator.fillersLeft <= 0)))
    return null;
  if (opensWithFiller(at(bare, 0))) narrator.fillersLeft--;
  return capitalize(bare.join(' '));
}

/** A line a syllable or two short gets an adjective before its end noun ("the open road") rather than a filler. */
function widenEnd(
  words: string[],
  ending: Ending,
  range: Range,
  palette: Palette,
  random: Random,
  taken: Set<string>,
): string[] {
  const deficit = range.min - syllablesOf(words);
  const cut = words.length - ending.word.split(' ').length;
  if (
    ending.kind !== 'n' ||
    deficit < 1 ||
    deficit > 2 ||
    cut < 1 ||
    !DETERMINERS.has(at(words, cut - 1).toLowerCase())
  )
    return words;
  const sources = [...palette.themed, palette.general];
  const choices = [...new Set(sources.flatMap((set) => set.A))].filter(
    (a) => !taken.has(a) && syllablesOf([a]) === deficit,
  );
  if (choices.length === 0) return words;
  const adjective = random.pick(choices);
  taken.add(adjective);
  return [...words.slice(0, cut), adjective, ...words.slice(cut)];
}

/**
 * Fills {N} {P} {A} {V} {G} from the theme words (never one already in `taken`) and E with the end word. A noun
 * after "a" or "every" is one that can be counted: "every wave", never "every sand".
 */
function fillTemplate(template: Template, end: string, taken: Set<string>, palette: Palette, random: Random): string {
  let noun = 0;
  return template.text.replace(/\{([NPAVG])\}|\bE\b/g, (_, slot: 'N' | 'P' | 'A' | 'V' | 'G' | undefined) => {
    if (slot === undefined) return end;
    const countable = (slot === 'N' || slot === 'P') && template.needs.slots[noun++] === 'count';
    const usable = (w: string) =>
      !taken.has(w) &&
      !(countable && palette.wording.isMass(lastWord(w))) &&
      !(slot === 'A' && template.feeling && !palette.wording.canFeel(w));
    // Mostly the prompt's theme words, sometimes the general ones, never a word already in the line.
    const source = palette.themed.length > 0 && random.chance(0.8) ? random.pick(palette.themed) : palette.general;
    const choices = source[slot].filter(usable);
    const fallback = palette.general[slot].filter(usable);
    const word =
      choices.length > 0 ? random.pick(choices) : random.pick(fallback.length > 0 ? fallback : palette.general[slot]);
    taken.add(word);
    return word;
  });
}

/**
 * Adds unstressed fillers ("oh", "and", "so") in front of a short line; null when it is too long or would
 * need more than `maxFillers` (stacked fillers read badly, another template usually fits better).
 */
function padToRange(
  words: string[],
  range: Range,
  palette: Palette,
  random: Random,
  maxFillers: number,
): string[] | null {
  let count = syllablesOf(words);
  if (count > range.max || range.min - count > maxFillers) return null;
  // "Oh E" padded again would stack fillers ("and oh all day").
  if (count < range.min && opensWithFiller(at(words, 0))) return null;
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
  return words.map((w, i) =>
    w === 'a' && i + 1 < words.length && pronounced(at(words, i + 1)).syllables[0]?.onset.length === 0 ? 'an' : w,
  );
}

const syllablesOf = (words: readonly string[]): number =>
  words.reduce((sum, w) => sum + pronounced(w).syllables.length, 0);

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
  const endings = [...palette.groups.values()]
    .flat()
    .sort((a, b) => syllablesOf(a.word.split(' ')) - syllablesOf(b.word.split(' ')));
  const words = at(endings, 0).word.split(' ');
  while (syllablesOf(words) < range.min) words.unshift('oh');
  return Array.from({ length: count }, () => capitalize(words.join(' ')));
}

const capitalize = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);
const firstWord = (line: string): string => at(line.split(' '), 0).toLowerCase();
/** A word worth not repeating within a section, or '' for the little words every line has. */
function contentWord(word: string): string {
  const plain = word.toLowerCase().replace(/[^a-z']/g, '');
  return plain.length >= 4 && !FUNCTION_WORDS.has(plain) ? plain : '';
}

function shuffle<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [at(out, j), at(out, i)];
  }
  return out;
}
