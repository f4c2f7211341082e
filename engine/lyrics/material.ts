/**
 * What a song is written from: the subjects its prompt asks for (the most specific leads), the songbook's
 * couplets about what the prompt is about when no subject holds it, and the prompt's own words for the
 * template symbols (#name#, #place#, #topic#), which keep their capitals.
 */
import type { Random } from '../random.ts';
import type { Subjects } from '../types.ts';
import type { Symbols } from './grammar.ts';
import { readWord } from './script.ts';
import { findSubjects, kindOf, loadSongbook, subjectNamed, type Couplets, type Subject } from './songbook.ts';
import { nameOf, songTitle } from './title.ts';

export interface Material {
  lead: Subject | null;
  second: Subject | null;
  /** The general couplets about #topic#, when the prompt's topic is no subject of the songbook. */
  topic: Couplets | null;
  symbols: Symbols;
  proper: Set<string>;
  /** The prompt's names, places and topic the singer can read. */
  subjects: Subjects | undefined;
}

/** Whether every word of a phrase can be sung (a name in Cyrillic cannot: it stays in the title, not the words). */
export const singable = (phrase: string): boolean =>
  phrase.split(/\s+/).every((word) => !/[\p{L}\p{N}]/u.test(word) || readWord(word).readable);

/** The prompt's names, places and topic that the singer can read. */
function readable(subjects: Subjects | undefined): Subjects | undefined {
  if (subjects === undefined) return undefined;
  const topic = subjects.topic ?? null;
  return {
    ...subjects,
    names: subjects.names.filter(singable),
    places: subjects.places.filter(singable),
    topic: topic !== null && singable(topic) ? topic : null,
  };
}

export function materialFor(prompt: string, valence: number, arousal: number, given: Subjects | undefined): Material {
  const { general } = loadSongbook();
  const subjects = readable(given);
  const found = findSubjects(prompt);
  const topic = subjects?.topic ?? null;
  const quadrant = valence >= 0 ? (arousal >= 0 ? 'bright' : 'warm') : arousal >= 0 ? 'restless' : 'blue';
  // With no subject the prompt's own topic leads, with the general couplets; with neither, the mood's subject leads.
  const moodSubject = general.moods[quadrant].map(subjectNamed).find((s) => s !== undefined) ?? null;
  const lead = found[0] ?? (topic === null ? moodSubject : null);
  const second = found[1] ?? null;
  const symbols = new Map<string, string[]>(Object.entries(general.symbols));
  for (const subject of [second, lead])
    for (const [key, list] of Object.entries(subject?.symbols ?? {})) symbols.set(key, list);
  const name = nameOf(subjects);
  if (name !== null) symbols.set('name', [name]);
  if (subjects?.places[0] !== undefined) symbols.set('place', [subjects.places[0]]);
  if (topic !== null) symbols.set('topic', [topic]);
  const proper = new Set([...(subjects?.names ?? []), ...(subjects?.places ?? []).flatMap((p) => p.split(' '))]);
  // A topic of a known kind ("my old truck", "a lighthouse keeper") is sung in that kind's images, beside the lead
  // subject's lines unless the lead was named by the same word; else in the general lines about #topic#.
  const kind = kindOf(topic);
  const kindSung = kind !== null && !(lead?.triggers.includes(kind.word) ?? false) ? kind.kind : null;
  return {
    lead,
    second,
    topic: kindSung ?? (found[0] === undefined && topic !== null ? general.topic : null),
    symbols,
    proper,
    subjects,
  };
}

/**
 * The title for a song whose lyrics the engine will write, or null to keep the one made from the prompt's
 * words. The interpreter asks before the lyrics exist, so the title and the hook that sings it agree.
 */
export function writtenSongTitle(
  prompt: string,
  valence: number,
  arousal: number,
  subjects: Subjects | undefined,
  random: Random,
): string | null {
  const material = materialFor(prompt, valence, arousal, subjects);
  return songTitle(material.lead, readable(subjects), material.symbols, random);
}
