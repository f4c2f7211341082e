/**
 * The word lists for reading whole sentences (issue 24), each optional so a folder of the core files still loads:
 *
 *   statements.json  what a phrase says about the piece as a whole: its tempo ("the tempo is slow", "mid-tempo",
 *                    "andante"), who plays ("only", "no other instrument", "a cappella"), who leads ("takes the
 *                    lead"), words that negate what came before ("vocals: none", "is absent") and words about the
 *                    recording rather than the music ("low quality", "mono", "live performance")
 *   voices.json      how a voice is described: its quality ("raspy"), a child or a choir singing, rap, speech or
 *                    humming instead of singing, and singer words beyond "singer" ("vocalist")
 *   timbres.json     adjectives that choose a patch for an instrument noun ("distorted" + "guitar" -> distGuitar)
 */
import { normalizePhrase } from '../interpret/tokenize.ts';
import { type Delivery, DELIVERIES, type Patch, PATCHES, VOICE_QUALITIES, type VoiceQuality } from '../types.ts';
import { failer, isRecord, readOptionalJson } from './read.ts';

export type Pace = 'slow' | 'medium' | 'fast';
export const PACES: readonly Pace[] = ['slow', 'medium', 'fast'];

/** What a phrase of statements.json says. A phrase may say several things ("solo": only before and after). */
export type Statement =
  | { kind: 'pace'; pace: Pace }
  /** An Italian tempo mark: its range of beats a minute. */
  | { kind: 'mark'; range: [number, number] }
  | { kind: 'cue'; cue: 'only' | 'lead'; side: 'before' | 'after' }
  | { kind: 'exclusive' }
  | { kind: 'voicesOnly' }
  | { kind: 'postNegator' }
  | { kind: 'recording' };

export interface PaceTarget {
  /** Beats a minute a listener calls slow, medium or fast; `strong` for "very slow" / "very fast". */
  target: number;
  strong: number;
  /** The arousal the statement adds (a slow piece is calmer). */
  arousal: number;
}

export interface Statements {
  phrases: ReadonlyMap<string, Statement[]>;
  /** Catalogue field names ("Tempo", "Vocals") whose colon joins the field to its value instead of ending a clause. */
  labels: ReadonlySet<string>;
  paces: Readonly<Record<Pace, PaceTarget>>;
  /** Words that make a clause about the recording ("the recording is noisy"). */
  recordingSubjects: ReadonlySet<string>;
  maxWords: number;
}

export interface VoiceWords {
  /** Words beyond VOCAL_WORDS that ask for a singer ("vocalist", "crooning"). */
  singing: ReadonlySet<string>;
  qualities: ReadonlyMap<string, VoiceQuality>;
  children: ReadonlySet<string>;
  /** Words before a child word that make the children the audience, not the singers ("for kids"). */
  audience: ReadonlySet<string>;
  choirs: ReadonlySet<string>;
  deliveries: ReadonlyMap<string, Delivery>;
  female: ReadonlySet<string>;
  male: ReadonlySet<string>;
  maxWords: number;
}

export const NOUN_CLASSES = [
  'guitar',
  'bass',
  'piano',
  'organ',
  'drums',
  'strings',
  'synth',
  'lead',
  'trumpet',
] as const;
export type NounClass = (typeof NOUN_CLASSES)[number];

export interface Timbres {
  nouns: ReadonlyMap<string, NounClass>;
  /** Words that may stand between an adjective and its noun ("distorted *strummed* guitar"). */
  fillers: ReadonlySet<string>;
  /** Adjective -> the patch per noun class; "=" keeps the noun's own patch ("muted bass" is the bass). */
  adjectives: ReadonlyMap<string, Partial<Record<NounClass, Patch | '='>>>;
  maxWords: number;
}

const strings = (value: unknown, where: string, fail: (m: string) => never): string[] => {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && normalizePhrase(v) !== '')) {
    fail(`${where} must be a list of phrases`);
  }
  return (value as string[]).map(normalizePhrase);
};
const record = (value: unknown, where: string, fail: (m: string) => never): Record<string, unknown> => {
  if (!isRecord(value)) fail(`${where} must be an object`);
  return value as Record<string, unknown>;
};
const longest = (phrases: Iterable<string>): number => Math.max(1, ...[...phrases].map((p) => p.split(' ').length));

export function loadStatements(folder: URL): Statements {
  const raw = readOptionalJson(folder, 'statements.json') ?? {};
  const fail = failer('statements.json');
  const data = record(raw, 'the file', fail);
  const phrases = new Map<string, Statement[]>();
  const add = (phrase: string, statement: Statement) =>
    phrases.set(phrase, [...(phrases.get(phrase) ?? []), statement]);

  const tempo = record(data.tempo ?? {}, 'tempo', fail);
  const pace = (value: unknown, where: string): Pace => {
    if (!PACES.includes(value as Pace)) fail(`${where}: "${String(value)}" is not one of ${PACES.join(', ')}`);
    return value as Pace;
  };
  // "the tempo is quite slow": every subject with every copula and every value, so sentences read as statements.
  const values = Object.entries(record(tempo.values ?? {}, 'tempo.values', fail));
  const copulas = Array.isArray(tempo.copulas) ? tempo.copulas.map((c) => normalizePhrase(String(c))) : [];
  for (const subject of strings(tempo.subjects ?? [], 'tempo.subjects', fail)) {
    for (const copula of copulas) {
      for (const [value, meaning] of values) {
        add([subject, copula, normalizePhrase(value)].filter(Boolean).join(' '), {
          kind: 'pace',
          pace: pace(meaning, value),
        });
      }
    }
  }
  // "a leisurely pace", "at a brisk tempo": every value in every template of a tempo phrase.
  const templates = tempo.templates ?? [];
  if (!Array.isArray(templates)) fail('tempo.templates must be a list');
  for (const template of templates as unknown[]) {
    if (typeof template !== 'string' || !template.includes('{}')) {
      fail(`tempo.templates "${String(template)}" needs a {} for the value`);
    }
    for (const [value, meaning] of values) {
      add(normalizePhrase(String(template).replace('{}', value)), { kind: 'pace', pace: pace(meaning, value) });
    }
  }
  for (const [phrase, meaning] of Object.entries(record(tempo.phrases ?? {}, 'tempo.phrases', fail))) {
    add(normalizePhrase(phrase), { kind: 'pace', pace: pace(meaning, phrase) });
  }
  for (const [mark, range] of Object.entries(record(tempo.marks ?? {}, 'tempo.marks', fail))) {
    const [low, high] = Array.isArray(range) ? range : [];
    if (typeof low !== 'number' || typeof high !== 'number' || low >= high || (range as unknown[]).length !== 2) {
      fail(`tempo.marks "${mark}" must be [lowest, highest] beats a minute`);
    }
    add(normalizePhrase(mark), { kind: 'mark', range: [low as number, high as number] });
  }

  const paces = {} as Record<Pace, PaceTarget>;
  const rawPaces = record(data.paces ?? {}, 'paces', fail);
  for (const name of PACES) {
    const p = (rawPaces[name] ?? { target: { slow: 70, medium: 100, fast: 140 }[name] }) as Partial<PaceTarget>;
    if (typeof p.target !== 'number') fail(`paces.${name} needs a target`);
    paces[name] = { target: p.target as number, strong: p.strong ?? (p.target as number), arousal: p.arousal ?? 0 };
  }

  for (const cue of ['only', 'lead'] as const) {
    const sides = record(data[cue] ?? {}, cue, fail);
    for (const side of ['before', 'after'] as const) {
      for (const phrase of strings(sides[side] ?? [], `${cue}.${side}`, fail)) add(phrase, { kind: 'cue', cue, side });
    }
  }
  for (const kind of ['exclusive', 'voicesOnly', 'postNegator'] as const) {
    const key = kind === 'postNegator' ? 'postNegators' : kind;
    for (const phrase of strings(data[key] ?? [], key, fail)) add(phrase, { kind });
  }
  const recording = record(data.recording ?? {}, 'recording', fail);
  for (const phrase of strings(recording.phrases ?? [], 'recording.phrases', fail)) add(phrase, { kind: 'recording' });

  return {
    phrases,
    labels: new Set(strings(data.labels ?? [], 'labels', fail)),
    paces,
    recordingSubjects: new Set(strings(recording.subjects ?? [], 'recording.subjects', fail)),
    maxWords: longest(phrases.keys()),
  };
}

export function loadVoices(folder: URL): VoiceWords {
  const raw = readOptionalJson(folder, 'voices.json') ?? {};
  const fail = failer('voices.json');
  const data = record(raw, 'the file', fail);
  const mapOf = <T extends string>(key: string, allowed: readonly T[]): Map<string, T> => {
    const map = new Map<string, T>();
    for (const [phrase, value] of Object.entries(record(data[key] ?? {}, key, fail))) {
      if (!allowed.includes(value as T))
        fail(`${key} "${phrase}": "${String(value)}" is not one of ${allowed.join(', ')}`);
      map.set(normalizePhrase(phrase), value as T);
    }
    return map;
  };
  const set = (key: string) => new Set(strings(data[key] ?? [], key, fail));
  const voices = {
    singing: set('singing'),
    qualities: mapOf('qualities', VOICE_QUALITIES),
    children: set('children'),
    audience: set('audience'),
    choirs: set('choirs'),
    deliveries: mapOf('deliveries', DELIVERIES),
    female: set('female'),
    male: set('male'),
  };
  const all = [
    ...voices.singing,
    ...voices.qualities.keys(),
    ...voices.children,
    ...voices.choirs,
    ...voices.deliveries.keys(),
  ];
  return { ...voices, maxWords: longest(all) };
}

export function loadTimbres(folder: URL): Timbres {
  const raw = readOptionalJson(folder, 'timbres.json') ?? {};
  const fail = failer('timbres.json');
  const data = record(raw, 'the file', fail);
  const nouns = new Map<string, NounClass>();
  for (const [noun, words] of Object.entries(record(data.nouns ?? {}, 'nouns', fail))) {
    if (!(NOUN_CLASSES as readonly string[]).includes(noun))
      fail(`"${noun}" is not a noun class (${NOUN_CLASSES.join(', ')})`);
    for (const word of strings(words, `nouns.${noun}`, fail)) nouns.set(word, noun as NounClass);
  }
  const adjectives = new Map<string, Partial<Record<NounClass, Patch | '='>>>();
  for (const [adjective, byNoun] of Object.entries(record(data.adjectives ?? {}, 'adjectives', fail))) {
    const entry = record(byNoun, `adjectives.${adjective}`, fail);
    for (const [noun, patch] of Object.entries(entry)) {
      if (!(NOUN_CLASSES as readonly string[]).includes(noun))
        fail(`adjectives.${adjective}: "${noun}" is not a noun class`);
      if (patch !== '=' && !(PATCHES as readonly string[]).includes(patch as string)) {
        fail(`adjectives.${adjective}.${noun}: "${String(patch)}" is not a patch`);
      }
    }
    adjectives.set(normalizePhrase(adjective), entry as Partial<Record<NounClass, Patch | '='>>);
  }
  return {
    nouns,
    fillers: new Set(strings(data.fillers ?? [], 'fillers', fail)),
    adjectives,
    maxWords: longest([...nouns.keys(), ...adjectives.keys()]),
  };
}
