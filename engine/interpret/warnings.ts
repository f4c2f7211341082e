/**
 * What the engine could not honour, said in plain sentences for `metadata.warnings`: instruments it has no
 * sound for, instruments played by a stand-in, named instruments the arrangement could not keep, and musics with
 * no style of their own played by the nearest one.
 */
import type { GenreEntry, InstrumentEntry } from '../lexicon/index.ts';
import type { InstrumentChoice, TraceEntry } from '../types.ts';
import { BOUNDARY } from './tokenize.ts';

const MAX_WORDS = 3;

/** Instrument words no patch plays ("kazoo", "hurdy gurdy"), each reported once. */
export function unplayableWarnings(
  tokens: readonly string[],
  unplayable: ReadonlyMap<string, string>,
  trace: TraceEntry[],
): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(MAX_WORDS, tokens.length - i); n >= 1; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.includes(BOUNDARY)) continue;
      const phrase = slice.join(' ');
      const reason = unplayable.get(phrase);
      if (reason === undefined) continue;
      if (!seen.has(reason)) {
        seen.add(reason);
        warnings.push(`"${phrase}" is not played: ${reason}.`);
        trace.push({ source: phrase, effect: `not played (${reason})` });
      }
      i += n - 1;
      break;
    }
  }
  return warnings;
}

interface NamedInstrument {
  phrase: string;
  entry: InstrumentEntry;
  negated: boolean;
}

/** A stand-in is reported ("erhu played by the violin"); a named instrument missing from the arrangement too. */
export function instrumentWarnings(
  named: readonly NamedInstrument[],
  instruments: readonly InstrumentChoice[],
): string[] {
  const warnings: string[] = [];
  const playing = new Set(instruments.map((i) => i.instrument));
  const said = new Set<string>();
  for (const { phrase, entry, negated } of named) {
    if (negated || said.has(phrase)) continue;
    said.add(phrase);
    const patches = [entry.patch, ...(entry.alike ?? []), ...Object.values(entry.ensemble ?? {})];
    const played = patches.some((p) => playing.has(p));
    if (entry.note && played) warnings.push(`"${phrase}" is played by a stand-in: ${entry.note}.`);
    else if (!played && !entry.generic) warnings.push(`"${phrase}" could not be fitted into the arrangement.`);
  }
  return warnings;
}

/** A music with no style of its own ("mariachi") is played by the nearest style (salsa): said when that style plays. */
export function genreWarnings(
  named: readonly { phrase: string; entry: GenreEntry; negated: boolean }[],
  playing: readonly string[],
): string[] {
  return named
    .filter(({ entry, negated }) => !negated && entry.note && playing.includes(entry.genre))
    .map(({ phrase, entry }) => `"${phrase}" has no style of its own: ${entry.note}.`);
}
