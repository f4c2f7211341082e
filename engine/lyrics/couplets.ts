/**
 * Writing one section from the songbook: rhymed couplets drawn from the section's pools (the subject's own
 * first), each fitted to the phrase's syllable range, no couplet sung twice in a song, one narrator ("I" or "we")
 * per section, and few lines opening with a filler. An odd last line rhymes with the line before it.
 */
import type { Random } from '../random.ts';
import type { Symbols } from './grammar.ts';
import { fitLine, opensWithFiller, type Fitted, type Proper, type Range } from './fit.ts';
import { rhymes, type Person } from './measure.ts';

/** Templates for one part of the song and how much the writer leans on them. */
export interface Pool {
  templates: readonly string[];
  weight: number;
}

/** What the whole song shares while its sections are written. */
export interface Song {
  symbols: Symbols;
  proper: Proper;
  valence: number;
  /** Templates already sung, so verses never repeat each other. */
  used: Set<string>;
  /**
   * Lines already sung, as bare words (./couplets.ts bareLine): two templates may share a line ("[And] I think of
   * you every day" answers a hook and ends a verse couplet), which is sung once.
   */
  sung: Set<string>;
}

/** A line's words without case, punctuation or an opening "and", "oh", "but", "so" or "now". */
export const bareLine = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, '')
    .replace(/^(?:(?:and|oh|but|so|now)\s+)+/, '')
    .trim();

/**
 * Whether a line may be sung here: not a line sung twice over, unless the section is out of lines of every part
 * (Narrator.doubles); not a line sung already, unless it is out of fresh ones (Narrator.reuse).
 */
const singable = (line: Fitted, song: Song, narrator: Narrator): boolean =>
  (narrator.doubles === true || !line.doubled) && (narrator.reuse === true || !song.sung.has(bareLine(line.text)));

/** One section's narrator, how many more of its lines may open with a filler, and the templates it has sung. */
export interface Narrator {
  person: Person;
  fillersLeft: number;
  /** The section's last line opened on a filler, so the next may not. */
  afterFiller?: boolean;
  own: Set<string>;
  /** Out of fresh couplets: one sung in another section may come back, never one of this section's. */
  reuse?: boolean;
  /**
   * A line half the phrase long may be sung twice over ("The wind is blowing in, the wind is blowing in"): a
   * hook's device, which in a verse says nothing more, so only once fresh lines of every part have run out.
   */
  doubles?: boolean;
}

/** Up to half a section's lines may open on "and", "oh", "so" or "now", never two side by side (./couplets.ts allowed). */
export const newNarrator = (lines: number): Narrator => ({
  person: 'none',
  fillersLeft: Math.floor(lines / 2),
  own: new Set(),
});

/** Whether a template may be sung here: fresh in the song, or at least in the section when reuse is allowed. */
const usable = (template: string, song: Song, narrator: Narrator): boolean =>
  !narrator.own.has(template) &&
  (narrator.reuse === true || !song.used.has(template)) &&
  suitsMood(template, song.valence);

/** Fitted variants compared per line, enough to find a rhyming pair with good stresses. */
const BEST_VARIANTS = 8;

export function writeCouplets(
  count: number,
  range: Range,
  pools: readonly Pool[],
  song: Song,
  random: Random,
  narrator: Narrator,
): Fitted[] {
  const lines: Fitted[] = [];
  while (lines.length < count) {
    const last = lines[lines.length - 1];
    if (count - lines.length === 1) {
      const single =
        (last === undefined ? null : pickSingle(range, pools, song, random, narrator, (line) => rhymes(last, line))) ??
        pickSingle(range, pools, song, random, narrator, () => true);
      if (single === null) break;
      lines.push(single);
      continue;
    }
    const couplet = pickCouplet(range, pools, song, random, narrator);
    if (couplet === null) break;
    lines.push(...couplet);
  }
  return lines;
}

/** The template's mood mark allows it in a song of this valence. */
export function suitsMood(template: string, valence: number): boolean {
  if (template.startsWith('+|')) return valence > -0.2;
  if (template.startsWith('-|')) return valence < 0.2;
  return true;
}

export const bodyOf = (template: string): string => template.replace(/^[+-]\|/, '');

const opensOnFiller = (line: Fitted): boolean => line.filler || opensWithFiller(line.text);

/** "I" or "we" when every line that says either says the same; 'none' when none does or a couplet says both. */
function personOf(lines: readonly Fitted[]): Person {
  const persons = new Set(lines.map((l) => l.person).filter((p) => p !== 'none'));
  return persons.size === 1 ? ([...persons][0] ?? 'none') : 'none';
}

/**
 * Whether lines may join a section in this narrator with this many filler openings left. A couplet that says both
 * ("I remember ... we used to sing") tells its own story and fits any narrator.
 */
export function allowed(lines: readonly Fitted[], narrator: Narrator): boolean {
  const person = personOf(lines);
  const opens = lines.map(opensOnFiller);
  // Two lines side by side opening on a filler ("And ... / And ...") read as padding.
  const neighbours = opens.some((open, i) => open && (i === 0 ? narrator.afterFiller === true : opens[i - 1] === true));
  return (
    (person === 'none' || narrator.person === 'none' || person === narrator.person) &&
    opens.filter(Boolean).length <= narrator.fillersLeft &&
    !neighbours
  );
}

export function take(lines: readonly Fitted[], template: string, song: Song, narrator: Narrator): void {
  song.used.add(template);
  for (const line of lines) song.sung.add(bareLine(line.text));
  narrator.own.add(template);
  const person = personOf(lines);
  if (person !== 'none') narrator.person = person;
  narrator.fillersLeft -= lines.filter(opensOnFiller).length;
  narrator.afterFiller = lines.length > 0 && opensOnFiller(lines[lines.length - 1] as Fitted);
}

function pickCouplet(
  range: Range,
  pools: readonly Pool[],
  song: Song,
  random: Random,
  narrator: Narrator,
): Fitted[] | null {
  const options: { lines: Fitted[]; template: string; weight: number }[] = [];
  for (const pool of pools) {
    for (const template of pool.templates) {
      if (!usable(template, song, narrator)) continue;
      const [first, second] = bodyOf(template).split(' / ');
      if (first === undefined || second === undefined) continue;
      const fill = { proper: song.proper, filler: narrator.fillersLeft > 0 ? 'oh' : null };
      const sung = (l: Fitted) => singable(l, song, narrator);
      const a = fitLine(first, range, song.symbols, fill).filter(sung).slice(0, BEST_VARIANTS);
      const b = fitLine(second, range, song.symbols, {
        ...fill,
        filler: narrator.fillersLeft > 0 ? 'and' : null,
      })
        .filter(sung)
        .slice(0, BEST_VARIANTS);
      let best: { lines: Fitted[]; cost: number } | null = null;
      for (const x of a) {
        for (const y of b) {
          const cost = x.cost + y.cost;
          if ((best === null || cost < best.cost) && rhymes(x, y) && allowed([x, y], narrator))
            best = { lines: [x, y], cost };
        }
      }
      if (best !== null) options.push({ lines: best.lines, template, weight: pool.weight * Math.exp(-best.cost / 2) });
    }
  }
  if (options.length === 0) return null;
  const chosen = random.weighted(
    options,
    options.map((o) => o.weight),
  );
  take(chosen.lines, chosen.template, song, narrator);
  return chosen.lines;
}

/** Words that open a clause which cannot stand alone ("And if we ever lose our way"). */
const SUBORDINATE = new Set([
  'if',
  'when',
  'whenever',
  'because',
  'though',
  'although',
  'while',
  'until',
  'till',
  'unless',
]);

/** A couplet's half that leans on the other half: sung alone it would be a fragment. */
function dependent(half: string): boolean {
  const words = half
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !['and', 'oh', 'so', 'but', 'now'].includes(w));
  return SUBORDINATE.has(words[0] ?? '');
}

/** One line from an unused couplet (which is then used up), for an odd line out. */
export function pickSingle(
  range: Range,
  pools: readonly Pool[],
  song: Song,
  random: Random,
  narrator: Narrator,
  accept: (line: Fitted) => boolean,
): Fitted | null {
  const options: { line: Fitted; template: string; weight: number }[] = [];
  for (const pool of pools) {
    for (const template of pool.templates) {
      if (!usable(template, song, narrator)) continue;
      for (const half of bodyOf(template).split(' / ')) {
        if (dependent(half)) continue;
        const line = fitLine(half, range, song.symbols, { proper: song.proper, filler: null }).find(
          (l) => singable(l, song, narrator) && accept(l) && allowed([l], narrator),
        );
        if (line !== undefined) options.push({ line, template, weight: pool.weight * Math.exp(-line.cost / 2) });
      }
    }
  }
  if (options.length === 0) return null;
  const chosen = random.weighted(
    options,
    options.map((o) => o.weight),
  );
  take([chosen.line], chosen.template, song, narrator);
  return chosen.line;
}
