/**
 * Timbre adjectives on an instrument noun: "distorted strummed guitar", "heavy distorted lead guitar", "a distorted
 * e-guitar", "an e-bass", "analog synth pads", "pizzicato strings". The first adjective with a patch for the noun
 * chooses it (lexicon/timbres.json); words between them that say nothing of the sound ("strummed", "rhythm") are
 * passed over, and "lead" among them names the instrument as the lead.
 */
import type { InstrumentEntry, Lexicon } from '../lexicon/index.ts';
import type { NounClass } from '../lexicon/sentences.ts';
import type { Patch, Role } from '../types.ts';
import { BOUNDARY } from './tokenize.ts';

export interface TimbreMatch {
  phrase: string;
  words: number;
  entry: InstrumentEntry;
  lead: boolean;
}

/** Roles of a noun when no lexicon entry plays the chosen patch. */
const NOUN_ROLES: Record<NounClass, Role[]> = {
  guitar: ['chords', 'lead'],
  bass: ['bass'],
  piano: ['chords', 'lead'],
  organ: ['chords', 'pad'],
  drums: ['drums'],
  strings: ['chords', 'pad'],
  synth: ['pad', 'chords'],
  lead: ['lead'],
  trumpet: ['lead', 'pad'],
};
/** The longest span an adjective reaches over to its noun. */
const MAX_SPAN = 6;

const byPatch = new WeakMap<Lexicon, Map<Patch, InstrumentEntry>>();

/** The lexicon's own entry for a patch (its roles and genre votes): "distorted guitar" for distGuitar. */
function entryFor(patch: Patch, lexicon: Lexicon): InstrumentEntry | undefined {
  let map = byPatch.get(lexicon);
  if (!map) {
    map = new Map();
    for (const entry of lexicon.instruments.values()) {
      if (!entry.generic && !entry.ensemble && !entry.note && !map.has(entry.patch)) map.set(entry.patch, entry);
    }
    byPatch.set(lexicon, map);
  }
  return map.get(patch);
}

/** The longest phrase of `table` starting at token i, as [phrase, words]. */
function phraseAt(
  tokens: readonly string[],
  i: number,
  has: (p: string) => boolean,
  max: number,
): [string, number] | null {
  for (let n = Math.min(max, tokens.length - i); n >= 1; n--) {
    const slice = tokens.slice(i, i + n);
    if (slice.includes(BOUNDARY)) continue;
    const phrase = slice.join(' ');
    if (has(phrase)) return [phrase, n];
  }
  return null;
}

export function timbreAt(tokens: readonly string[], i: number, lexicon: Lexicon): TimbreMatch | null {
  const { adjectives, nouns, fillers, maxWords } = lexicon.timbres;
  const first = phraseAt(tokens, i, (p) => adjectives.has(p), maxWords);
  if (!first) return null;
  const said: string[] = [first[0]];
  let lead = false;
  let j = i + first[1];
  while (j < tokens.length && j - i < MAX_SPAN) {
    const noun = phraseAt(tokens, j, (p) => nouns.has(p), maxWords);
    const nounClass = noun ? nouns.get(noun[0]) : undefined;
    // "lead" is a noun ("synth lead") unless another noun follows it ("distorted lead guitar").
    const passOver = noun?.[0] === 'lead' && phraseAt(tokens, j + 1, (p) => nouns.has(p), maxWords) !== null;
    if (noun && nounClass && !passOver) {
      const chosen = said.map((a) => adjectives.get(a)?.[nounClass]).find((p) => p !== undefined);
      if (chosen === undefined) return null;
      const own = lexicon.instruments.get(noun[0]) ?? lexicon.instruments.get(nounClass);
      const entry =
        chosen === '=' ? own : (entryFor(chosen, lexicon) ?? { patch: chosen, roles: NOUN_ROLES[nounClass] });
      if (!entry) return null;
      const words = j + noun[1] - i;
      // The adjective chose the patch: other guitars do not already satisfy "jangly guitars".
      const { alike: _alike, ...chosenEntry } = entry;
      return { phrase: tokens.slice(i, i + words).join(' '), words, entry: chosen === '=' ? entry : chosenEntry, lead };
    }
    const adjective = phraseAt(tokens, j, (p) => adjectives.has(p), maxWords);
    if (adjective) {
      said.push(adjective[0]);
      j += adjective[1];
      continue;
    }
    const filler = phraseAt(tokens, j, (p) => fillers.has(p), maxWords);
    if (!filler) return null;
    if (filler[0] === 'lead') lead = true;
    j += filler[1];
  }
  return null;
}
