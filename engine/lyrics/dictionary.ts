/**
 * The CMU pronouncing dictionary (135k words, a 4.6 MB object), loaded on first use rather than at import,
 * so importing the engine stays cheap for code paths that never sing (about 0.3 s when it does load).
 * The package is ESM-only; Node 20.19+ can require() it synchronously, which keeps `pronounceWord`
 * synchronous. Older Node 20 releases (package.json allows >= 20.8) cannot, so they read the module's
 * object literal, which is plain JSON, from the file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type Dictionary = Readonly<Record<string, string>>;
let dictionary: Dictionary | null = null;

function load(): Dictionary {
  if (dictionary !== null) return dictionary;
  const require = createRequire(import.meta.url);
  try {
    dictionary = (require('cmu-pronouncing-dictionary') as { dictionary: Dictionary }).dictionary;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    const source = readFileSync(require.resolve('cmu-pronouncing-dictionary'), 'utf8');
    dictionary = JSON.parse(source.slice(source.indexOf('= {') + 2).trim().replace(/;$/, '')) as Dictionary;
  }
  return dictionary;
}

/** The first (most common) CMU pronunciation of a lower-case word, e.g. "summer" -> "S AH1 M ER0". */
export function lookupPhones(word: string): string | undefined {
  const entries = load();
  // Object.hasOwn: the dictionary is a plain object, and "constructor" is a word people sing.
  return Object.hasOwn(entries, word) ? entries[word] : undefined;
}
