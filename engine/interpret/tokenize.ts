/**
 * Text normalisation shared by the lexicon loader and the matcher, so a phrase written "lo-fi" in the data
 * and "Lo Fi" in a prompt meet as the same tokens.
 */

/** A token that marks a clause boundary (",", ".", ";" ...): negation and intensity never cross it. */
export const BOUNDARY = '|';

/**
 * Lower-cases, folds typographic apostrophes away ("don't" -> "dont"), treats hyphens, slashes and
 * underscores as spaces ("lo-fi" -> "lo fi") and turns clause punctuation into BOUNDARY tokens.
 * Letters of every script and digits survive, so foreign prompts tokenise (and simply match nothing).
 */
export function tokenize(text: string): string[] {
  const normalized = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’‘`]/g, '')
    .replace(/[,.;:!?()[\]{}"“”…]+/g, ` ${BOUNDARY} `)
    .replace(/[^\p{L}\p{N}&#|]+/gu, ' ');
  return normalized.split(/\s+/).filter((token) => token.length > 0);
}

/** The canonical form of a lexicon phrase: its tokens joined by single spaces, without boundaries. */
export function normalizePhrase(phrase: string): string {
  return tokenize(phrase)
    .filter((token) => token !== BOUNDARY)
    .join(' ');
}

/** "rainy piano nights" -> "Rainy Piano Nights". */
export function titleCase(words: string): string {
  return words
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Catalogue fields ("Tempo: slow. Vocals: none.") read as phrases: the colon after a field's name at the start of
 * a clause joins the name to its value ("tempo slow", "vocals none") instead of ending a clause.
 */
export function joinLabels(tokens: readonly string[], labels: ReadonlySet<string>): string[] {
  return tokens.filter((token, i) => {
    if (token !== BOUNDARY || i === 0) return true;
    const label = tokens[i - 1] ?? '';
    const starts = i < 2 || tokens[i - 2] === BOUNDARY;
    return !(starts && labels.has(label) && tokens[i + 1] !== undefined && tokens[i + 1] !== BOUNDARY);
  });
}
