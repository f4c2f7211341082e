/**
 * Fitting a songbook line to the melody's phrase: of the template's variants, those whose syllables fall in the
 * phrase's range, best first by how well their stresses alternate and how fully they use the phrase. A variant
 * one syllable short may open with an unstressed filler ("Oh, the tide is high") when the section allows one.
 */
import { expand, type Symbols } from './grammar.ts';
import { measure, pronounced, stressCost, type Measured } from './measure.ts';

export interface Range {
  min: number;
  max: number;
}

export interface Fitted extends Measured {
  /** Opens with a filler added to fit. */
  filler: boolean;
  /** Sung twice over to fill a long phrase ("Let it snow, let it snow"). */
  doubled: boolean;
  /** Lower is better: stress clashes and lapses, a filler, distance from the middle of the range. */
  cost: number;
}

/** Words that keep their capital when a filler is put before them. */
export interface Proper {
  has(word: string): boolean;
}

const measured = new Map<string, Measured>();
function measureOnce(text: string): Measured {
  let entry = measured.get(text);
  if (entry === undefined) {
    entry = measure(text);
    measured.set(text, entry);
  }
  return entry;
}

export function fitLine(
  template: string,
  range: Range,
  symbols: Symbols,
  options: { filler: string | null; proper: Proper },
): Fitted[] {
  const middle = (range.min + range.max) / 2;
  const out: Fitted[] = [];
  for (const variant of expand(template, symbols)) {
    const line = measureOnce(capitalize(fixArticles(variant)));
    const cost = stressCost(line.stresses) + 0.15 * Math.abs(line.syllables - middle);
    if (line.syllables >= range.min && line.syllables <= range.max)
      out.push({ ...line, filler: false, doubled: false, cost });
    // A line half the phrase long is sung twice ("Let it snow, let it snow"): a songwriter's device, kept for when nothing else fits.
    // Never a line that already repeats itself ("Here it comes, here it comes" four times).
    else if (
      line.syllables >= 3 &&
      line.syllables * 2 >= range.min &&
      line.syllables * 2 <= range.max &&
      !repeatsItself(line.text)
    ) {
      const twice = measureOnce(
        `${line.text.replace(/[,.!?]+$/, '')}, ${withFiller('', line.text, options.proper).trim()}`,
      );
      out.push({
        ...twice,
        filler: false,
        doubled: true,
        cost: stressCost(twice.stresses) + 0.15 * Math.abs(twice.syllables - middle) + 8,
      });
    } else if (line.syllables === range.min - 1 && options.filler !== null && takesFiller(options.filler, line.text)) {
      const padded = measureOnce(withFiller(options.filler, line.text, options.proper));
      out.push({
        ...padded,
        filler: true,
        doubled: false,
        cost: stressCost(padded.stresses) + 0.15 * Math.abs(padded.syllables - middle) + 1,
      });
    }
  }
  return out.sort((a, b) => a.cost - b.cost);
}

/** "Here it comes, here it comes": a line whose comma-separated parts say the same thing twice. */
function repeatsItself(text: string): boolean {
  const parts = text
    .toLowerCase()
    .split(',')
    .map((p) => p.replace(/^\s*(?:oh|and)\s+/, '').trim())
    .filter((p) => p !== '' && p !== 'oh');
  return new Set(parts).size < parts.length;
}

/** Unstressed words that open a line without saying anything; a section uses few of them. */
export const FILLERS: readonly string[] = ['oh', 'and', 'so', 'now'];
export const opensWithFiller = (line: string): boolean =>
  FILLERS.includes(
    line
      .split(' ')[0]
      ?.toLowerCase()
      .replace(/[^a-z]/g, '') ?? '',
  );

/** Words a line may open on that "and" or "so" cannot stand before ("And like an old refrain"). */
const JOINING = new Set([
  'like',
  'with',
  'where',
  'when',
  'but',
  'and',
  'so',
  'as',
  'if',
  'because',
  'to',
  'of',
  'for',
  'through',
  'or',
  'than',
  'until',
  'till',
  // A line that opens on its verb goes on from the line before ("Every gas station and every sign / Is a story").
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  // So does one that opens on a helping verb ("The little seeds we plant below / Will find a way to grow").
  'will',
  'would',
  'can',
  'could',
  'shall',
  'should',
  'may',
  'might',
  'must',
]);

/** Whether the filler can open this line: "oh" before anything but another "oh" ("Oh, and a fire in my chest"), the others before a plain word. */
function takesFiller(filler: string, line: string): boolean {
  const first =
    line
      .split(' ')[0]
      ?.toLowerCase()
      .replace(/[^a-z]/g, '') ?? '';
  if (filler === 'oh') return first !== 'oh';
  return !opensWithFiller(line) && !JOINING.has(first);
}

/** "a open road" -> "an open road" (and back), by the next word's first sound, so a left-out adjective leaves a right article. */
function fixArticles(text: string): string {
  return text.replace(/\b([Aa]n?) ([\p{L}']+)/gu, (_whole, article: string, next: string) => {
    const vowel = pronounced(next).syllables[0]?.onset.length === 0;
    const fixed = vowel ? 'an' : 'a';
    return `${article[0] === 'A' ? capitalize(fixed) : fixed} ${next}`;
  });
}

export const capitalize = (line: string): string => line.charAt(0).toUpperCase() + line.slice(1);

/** "oh" + "The tide is high" -> "Oh, the tide is high"; a name or "I" keeps its capital. */
export function withFiller(filler: string, line: string, proper: Proper): string {
  const [first = '', ...rest] = line.split(' ');
  const bare = first.replace(/[^\p{L}']/gu, '');
  const keep = bare === 'I' || bare.startsWith("I'") || proper.has(bare);
  const opened = filler === 'oh' ? 'Oh,' : capitalize(filler);
  return [opened, keep ? first : first.charAt(0).toLowerCase() + first.slice(1), ...rest].join(' ').trim();
}
