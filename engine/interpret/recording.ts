/**
 * Words about the recording, not the music: "low quality", "an amateur recording", "live performance", "mono",
 * "noisy". They change nothing, and the trace says so. In a clause about the recording ("the recording is noisy and
 * low fidelity", "the audio quality is poor, with audible tape hiss") the sound words that would otherwise colour the
 * music (lo-fi, tape hiss, muffled, a vinyl crackle) describe the recording too, and are set aside the same way.
 */
import type { TraceEntry } from '../types.ts';
import type { Content } from './match.ts';
import { BOUNDARY } from './tokenize.ts';

const IGNORED = 'about the recording, not the music: ignored';

/** Words that carry a clause on from the one before it ("the audio quality is poor, *with* audible hiss"). */
const CARRIED = new Set(['with', 'and', 'plus', 'including', 'which', 'some', 'lots', 'a', 'audible']);

/** Token ranges [start, end) of the clauses that speak of the recording, with the clauses that carry them on. */
function recordingClauses(tokens: readonly string[], subjects: ReadonlySet<string>): [number, number][] {
  const clauses: [number, number][] = [];
  let start = 0;
  let speaking = false;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i] !== BOUNDARY) continue;
    const clause = tokens.slice(start, i);
    const speaks = clause.some((_, k) => [1, 2, 3].some((n) => subjects.has(clause.slice(k, k + n).join(' '))));
    speaking = speaks || (speaking && CARRIED.has(clause[0] ?? ''));
    if (speaking) clauses.push([start, i]);
    start = i + 1;
  }
  return clauses;
}

/** A word that would change the sound of the mix rather than the notes. */
function soundsLikeProduction(c: Content): boolean {
  if (c.kind === 'hint') return c.lexicon === 'production';
  return c.kind === 'instrument' && c.entry.roles.every((r) => r === 'texture');
}

/** The content without the words about the recording, each traced. */
export function setRecordingAside(
  tokens: readonly string[],
  content: readonly Content[],
  subjects: ReadonlySet<string>,
  trace: TraceEntry[],
): Content[] {
  const clauses = recordingClauses(tokens, subjects);
  const inClause = (index: number) => clauses.some(([start, end]) => index >= start && index < end);
  return content.filter((c) => {
    const aside = c.kind === 'recording' || (soundsLikeProduction(c) && inClause(c.index));
    if (aside) trace.push({ source: c.phrase, effect: IGNORED });
    return !aside;
  });
}
