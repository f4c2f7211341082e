/**
 * The songbook's small template language, in the manner of Tracery: a line is written once with the places
 * it may change, and the writer picks the variant that fits the melody.
 *   [words]     may be left out ("[And] the gulls are calling me there")
 *   {a|b|}      one of these (an empty choice leaves nothing)
 *   #symbol#    one of the symbol's phrases (#name#, #place#, #topic# come from the prompt); none, no variant
 * Variants are listed in a fixed order, so a seeded pick among them is deterministic.
 */

/** Phrases a #symbol# may stand for. */
export type Symbols = ReadonlyMap<string, readonly string[]>;

/** Variants of one template are capped: a line with many choices still costs little to fit. */
const MAX_VARIANTS = 96;

/** Every way the template can be sung (up to MAX_VARIANTS), spaces and commas tidied. */
export function expand(template: string, symbols: Symbols): string[] {
  const out = new Set<string>();
  walk(template, symbols, (text) => out.add(tidy(text)), 0);
  return [...out].filter((text) => text !== '');
}

/** The first construct of a template and what can stand in its place. */
function firstChoice(
  template: string,
  symbols: Symbols,
): { start: number; end: number; choices: readonly string[]; symbol: boolean } | null {
  const match = /\[([^\]]*)\]|\{([^}]*)\}|#([a-z_]+)#/.exec(template);
  if (match === null) return null;
  const [whole, optional, alternatives, symbol] = match;
  // A symbol with no phrases (#name# when the prompt names nobody) leaves the template with no variants.
  const choices =
    optional !== undefined
      ? [optional, '']
      : alternatives !== undefined
        ? alternatives.split('|')
        : (symbols.get(symbol ?? '') ?? []);
  return { start: match.index, end: match.index + whole.length, choices, symbol: symbol !== undefined };
}

function walk(template: string, symbols: Symbols, emit: (text: string) => void, depth: number, count = { n: 0 }): void {
  if (count.n >= MAX_VARIANTS) return;
  const choice = firstChoice(template, symbols);
  if (choice === null) {
    count.n++;
    emit(template);
    return;
  }
  // A symbol's phrase may hold constructs of its own; the depth bound stops a symbol that names itself.
  if (depth > 6) throw new Error(`The songbook template "${template}" nests symbols too deeply`);
  for (const option of choice.choices) {
    walk(
      template.slice(0, choice.start) + option + template.slice(choice.end),
      symbols,
      emit,
      depth + (choice.symbol ? 1 : 0),
      count,
    );
  }
}

/** "so  , we  go" -> "so, we go"; a comma never opens or closes a line. */
export function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,?!.])/g, '$1')
    .replace(/,+/g, ',')
    .replace(/^[\s,]+|[\s,]+$/g, '')
    .trim();
}
