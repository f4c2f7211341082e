/**
 * A way of playing named next to a bowed instrument: "pizzicato cello", "the cello plays pizzicato", "violins in
 * tremolo". The instrument keeps its own sound and plays that way throughout (SongSpec.articulations); the word no
 * longer asks for a string section of its own. A string section has patches of its own for these ("pizzicato
 * strings"), which the lexicon already names.
 */
import type { Articulation, Patch, TraceEntry } from '../types.ts';
import type { Content } from './match.ts';
import { BOUNDARY } from './tokenize.ts';

const WAYS: Record<string, Articulation> = {
  pizzicato: 'pizzicato',
  pizz: 'pizzicato',
  plucked: 'pizzicato',
  tremolo: 'tremolo',
  tremolando: 'tremolo',
};
/** Bowed solo instruments whose samples have these ways of playing (engine/render/sampled/catalogue.ts). */
const BOWED: ReadonlySet<Patch> = new Set<Patch>(['violin', 'viola', 'cello', 'contrabass']);
const BEFORE = 2;
const AFTER = 4;

export interface Articulated {
  content: Content[];
  /** The way each named bowed instrument plays. */
  ways: Map<Patch, Articulation>;
}

export function readArticulations(
  tokens: readonly string[],
  content: readonly Content[],
  trace: TraceEntry[],
): Articulated {
  const ways = new Map<Patch, Articulation>();
  const used = new Set<number>();
  for (const c of content) {
    if (c.kind !== 'instrument' || c.negated || !BOWED.has(c.entry.patch)) continue;
    const end = c.index + c.phrase.split(' ').length;
    const near = [...range(c.index - 1, c.index - BEFORE - 1, tokens), ...range(end, end + AFTER, tokens)];
    const at = near.find((k) => WAYS[tokens[k] ?? ''] !== undefined);
    const way = at === undefined ? undefined : WAYS[tokens[at] ?? ''];
    if (at === undefined || way === undefined) continue;
    ways.set(c.entry.patch, way);
    used.add(at);
    trace.push({ source: `${c.phrase}, ${tokens[at]}`, effect: `${c.entry.patch} plays ${way} throughout` });
  }
  // The way of playing was the instrument's, not a string section's ("pizzicato" alone asks for one).
  const kept = content.filter((c) => !(c.kind === 'instrument' && used.has(c.index) && WAYS[c.phrase] !== undefined));
  return { content: kept, ways };
}

/** Token positions from `from` towards `to` (either way), stopping at a clause boundary. */
function range(from: number, to: number, tokens: readonly string[]): number[] {
  const step = to >= from ? 1 : -1;
  const out: number[] = [];
  for (let k = from; k !== to && k >= 0 && k < tokens.length && tokens[k] !== BOUNDARY; k += step) out.push(k);
  return out;
}
