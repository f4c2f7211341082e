/**
 * The `energy`, `instruments` and `exclude` fields, fed to interpretation as the firmest words there are:
 * `energy` sets the arousal mood words would have set, `instruments` are instrument words that must be
 * played, `exclude` takes out roles or instruments. Where the prompt says otherwise, the field wins and a
 * warning says so.
 */
import { at } from '../checked.ts';
import type { Lexicon } from '../lexicon/index.ts';
import { RequestError } from '../errors.ts';
import type { MusicalFields, Role, TraceEntry } from '../types.ts';
import type { WordHints } from './hints.ts';
import type { InstrumentWord } from './instruments.ts';
import { round2 } from './mood.ts';
import { instrumentWord, roleWord } from './fields.ts';

/** Mood words that move arousal by at least this much have an opinion about the energy. */
const OPINION = 0.3;

/** The arousal for an `energy` of 0–1 (0 → -1, 1 → 1); without the field, the words' arousal. */
export function energyArousal(
  energy: number | undefined,
  worded: number,
  words: readonly WordHints[],
  trace: TraceEntry[],
  warnings: string[],
): number {
  if (energy === undefined) return worded;
  const arousal = round2(2 * energy - 1);
  trace.push({ source: 'energy field', effect: `arousal = ${arousal} (energy ${energy}, over the words' ${worded})` });
  const pushing = words.filter((w) => {
    const pushes = w.hints.arousal ?? 0;
    return Math.abs(pushes) >= OPINION && Math.sign(pushes) !== Math.sign(arousal - worded);
  });
  if (pushing.length > 0 && Math.abs(arousal - worded) >= 0.4) {
    const phrases = pushing.map((w) => `"${w.phrase}"`).join(', ');
    warnings.push(
      `The prompt's ${phrases} asks for ${arousal < worded ? 'more' : 'less'} energy than the "energy" field's ${energy}: the field wins.`,
    );
  }
  return arousal;
}

export interface FieldArrangement {
  words: InstrumentWord[];
  excludedRoles: { phrase: string; role: Role }[];
  /** The instruments field's own words, for the warnings about instruments the arrangement could not keep. */
  asked: InstrumentWord[];
  /** Whether the exclude field left the vocals out. */
  vocalsExcluded: boolean;
}

/**
 * The prompt's instrument words and excluded roles with the fields' added. A prompt word the fields
 * contradict ("no piano" with `instruments: ["piano"]`) is dropped.
 */
export function fieldInstruments(
  music: MusicalFields | undefined,
  lexicon: Lexicon,
  input: Pick<FieldArrangement, 'words' | 'excludedRoles'>,
  warnings: string[],
): FieldArrangement {
  let words = [...input.words];
  const excludedRoles = [...input.excludedRoles];
  const asked: InstrumentWord[] = [];
  let vocalsExcluded = false;
  for (const name of music?.instruments ?? []) {
    const entry = instrumentWord(lexicon, name);
    if (!entry) throw new RequestError(`Not an instrument the engine plays: ${name}`);
    const refused = words.filter((w) => w.negated && w.entry.patch === entry.patch);
    if (refused.length > 0) {
      warnings.push(
        `The prompt leaves out "${at(refused, 0).phrase}" but the "instruments" field asks for ${name}: the field wins.`,
      );
      words = words.filter((w) => !refused.includes(w));
    }
    const word = { phrase: name, entry, negated: false, only: false, lead: false };
    asked.push(word);
    words.push(word);
  }
  for (const name of music?.exclude ?? []) {
    const role = roleWord(name);
    if (role) {
      excludedRoles.push({ phrase: `${name} (exclude field)`, role });
      if (role === 'vocal') vocalsExcluded = true;
      const named = words.filter((w) => !w.negated && !asked.includes(w) && w.entry.roles.every((r) => r === role));
      if (named.length > 0)
        warnings.push(
          `The prompt asks for "${at(named, 0).phrase}" but the "exclude" field leaves out the ${name}: the field wins.`,
        );
      continue;
    }
    const entry = instrumentWord(lexicon, name);
    if (!entry) throw new RequestError(`Neither a role nor an instrument: ${name}`);
    const named = words.filter((w) => !w.negated && w.entry.patch === entry.patch);
    if (named.length > 0) {
      warnings.push(
        `The prompt asks for "${at(named, 0).phrase}" but the "exclude" field leaves out ${name}: the field wins.`,
      );
      words = words.filter((w) => !named.includes(w));
    }
    words.push({ phrase: `${name} (exclude field)`, entry, negated: true, only: false, lead: false });
  }
  return { words, excludedRoles, asked, vocalsExcluded };
}
