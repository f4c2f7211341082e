/**
 * The CMU pronouncing dictionary (135k words, a 4.6 MB object), loaded on first use rather than at import,
 * so importing the engine stays cheap for code paths that never sing. The package is one ESM file whose
 * object literal is plain JSON: reading and JSON.parse-ing it takes about 0.4 s, where importing it through
 * the tsx loader (which transforms the 4.6 MB file first) took 0.9–2.7 s here; it also keeps
 * `pronounceWord` synchronous on every Node 20 release.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type Dictionary = Readonly<Record<string, string>>;
let dictionary: Dictionary | null = null;

function load(): Dictionary {
  if (dictionary !== null) return dictionary;
  const source = readFileSync(createRequire(import.meta.url).resolve('cmu-pronouncing-dictionary'), 'utf8');
  dictionary = JSON.parse(
    source
      .slice(source.indexOf('= {') + 2)
      .trim()
      .replace(/;$/, ''),
  ) as Dictionary;
  return dictionary;
}

/** The first (most common) CMU pronunciation of a lower-case word, e.g. "summer" -> "S AH1 M ER0". */
export function lookupPhones(word: string): string | undefined {
  const entries = load();
  // Object.hasOwn: the dictionary is a plain object, and "constructor" is a word people sing.
  return Object.hasOwn(entries, word) ? entries[word] : undefined;
}
