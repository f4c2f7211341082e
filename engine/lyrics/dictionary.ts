/**
 * The CMU pronouncing dictionary (135k words, a 4.6 MB object), loaded on first use rather than at import,
 * so importing the engine stays cheap for code paths that never sing. The package is ESM-only; Node 20.19+
 * can require() it synchronously, which keeps `pronounceWord` synchronous.
 */
import { createRequire } from 'node:module';

let dictionary: Readonly<Record<string, string>> | null = null;

function load(): Readonly<Record<string, string>> {
  if (dictionary === null) {
    const require = createRequire(import.meta.url);
    dictionary = (require('cmu-pronouncing-dictionary') as { dictionary: Record<string, string> }).dictionary;
  }
  return dictionary;
}

/** The first (most common) CMU pronunciation of a lower-case word, e.g. "summer" -> "S AH1 M ER0". */
export function lookupPhones(word: string): string | undefined {
  const entries = load();
  // Object.hasOwn: the dictionary is a plain object, and "constructor" is a word people sing.
  return Object.hasOwn(entries, word) ? entries[word] : undefined;
}
