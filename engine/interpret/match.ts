/**
 * Lexicon matching: a greedy longest-phrase scan over the tokens ("car chase" before "chase",
 * "drum and bass" before "bass"), then a scope pass that hands each intensifier and negator to the
 * next content word in its clause ("not very happy", "no drums", "without vocals").
 */
import { at } from '../checked.ts';
import type { GenreEntry, Hints, HintLexicon, InstrumentEntry, Lexicon } from '../lexicon/index.ts';
import { BOUNDARY } from './tokenize.ts';

/** Words that ask for a singer. */
export const VOCAL_WORDS = new Set([
  'song',
  'songs',
  'vocals',
  'vocal',
  'voice',
  'voices',
  'singer',
  'singers',
  'singing',
  'sung',
  'sing',
  'sings',
  'lyrics',
  'lyric',
  'ballad',
  'duet',
  'chorus',
  'shanty',
  'shanties',
  'carol',
  'carols',
]);
/** Words that only ask for no singer. */
export const NO_VOCAL_WORDS = new Set(['instrumental', 'instrumentals', 'acapella']);
/** Marks "solo piano", "just guitar", "only strings", "piano only", "piano alone". */
export const ONLY_BEFORE = new Set(['solo', 'just', 'only', 'purely', 'pure']);
export const ONLY_AFTER = new Set(['only', 'solo', 'alone']);
/** After instruments, a duet or duo is those instruments alone ("a violin and viola duet"), not a singer's duet. */
const ENSEMBLE_OF_NAMED = new Set(['duet', 'duo']);
/** One-word exclusions. */
export const EXCLUDING_WORDS: Record<string, 'drums' | 'bass'> = {
  drumless: 'drums',
  beatless: 'drums',
  percussionless: 'drums',
  bassless: 'bass',
};

export type Content =
  | { kind: 'genre'; phrase: string; entry: GenreEntry; index: number; negated: boolean }
  | {
      kind: 'hint';
      lexicon: HintLexicon;
      phrase: string;
      hints: Hints;
      index: number;
      factor: number;
      negated: boolean;
      intensifier: string | null;
    }
  | { kind: 'instrument'; phrase: string; entry: InstrumentEntry; index: number; negated: boolean; only: boolean }
  | { kind: 'vocal'; phrase: string; index: number; negated: boolean }
  | { kind: 'noVocal'; phrase: string; index: number }
  | { kind: 'exclude'; phrase: string; role: 'drums' | 'bass'; index: number };

export interface MatchResult {
  content: Content[];
  /** Tokens no lexicon knew (function words included). */
  unknown: string[];
  /** How many tokens were recognised by some lexicon. */
  recognised: number;
}

/** Omit over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Bare = DistributiveOmit<Content, 'negated' | 'factor' | 'only' | 'intensifier'>;

type Raw =
  | { kind: 'content'; items: Bare[]; phrase: string; index: number; words: number }
  | { kind: 'intensifier'; factor: number; phrase: string; index: number; words: number }
  | { kind: 'negator'; phrase: string; index: number; words: number }
  | { kind: 'only'; phrase: string; index: number; words: number }
  | { kind: 'boundary'; index: number; words: number }
  | { kind: 'unknown'; phrase: string; index: number; words: number };

const MAX_PHRASE_WORDS = 5;

function lookup(phrase: string, lexicon: Lexicon, index: number): Raw | null {
  const items: Bare[] = [];
  const genre = lexicon.genres.get(phrase);
  if (genre) items.push({ kind: 'genre', phrase, entry: genre, index });
  for (const [lexiconName, map] of [
    ['mood', lexicon.moods],
    ['scene', lexicon.scenes],
    ['production', lexicon.production],
  ] as const) {
    const hints = map.get(phrase);
    if (hints) items.push({ kind: 'hint', lexicon: lexiconName, phrase, hints, index });
  }
  const instrument = lexicon.instruments.get(phrase);
  if (instrument) items.push({ kind: 'instrument', phrase, entry: instrument, index });
  const words = phrase.split(' ');
  // A vocal word inside a longer phrase ("pop song") still asks for a singer.
  if ((items.length > 0 || words.length === 1) && words.some((w) => VOCAL_WORDS.has(w)))
    items.push({ kind: 'vocal', phrase, index });
  if (words.length === 1 && NO_VOCAL_WORDS.has(phrase)) items.push({ kind: 'noVocal', phrase, index });
  const excluding = EXCLUDING_WORDS[phrase];
  if (words.length === 1 && excluding) items.push({ kind: 'exclude', phrase, role: excluding, index });
  if (items.length > 0) return { kind: 'content', items, phrase, index, words: words.length };
  const factor = lexicon.intensifiers.get(phrase);
  if (factor !== undefined) return { kind: 'intensifier', factor, phrase, index, words: words.length };
  if (lexicon.negators.has(phrase)) return { kind: 'negator', phrase, index, words: words.length };
  return null;
}

function scan(tokens: readonly string[], lexicon: Lexicon): Raw[] {
  const raws: Raw[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = at(tokens, i);
    if (token === BOUNDARY) {
      raws.push({ kind: 'boundary', index: i, words: 1 });
      i += 1;
      continue;
    }
    let found: Raw | null = null;
    for (let n = Math.min(MAX_PHRASE_WORDS, tokens.length - i); n >= 1 && !found; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.includes(BOUNDARY)) continue;
      found = lookup(slice.join(' '), lexicon, i);
    }
    if (!found && (ONLY_BEFORE.has(token) || ONLY_AFTER.has(token)))
      found = { kind: 'only', phrase: token, index: i, words: 1 };
    if (ENSEMBLE_OF_NAMED.has(token) && isInstrument(raws[raws.length - 1]))
      found = { kind: 'only', phrase: token, index: i, words: 1 };
    raws.push(found ?? { kind: 'unknown', phrase: token, index: i, words: 1 });
    i += found ? found.words : 1;
  }
  return raws;
}

const JOINERS = new Set(['and', '&', 'plus', 'with']);

function isInstrument(raw: Raw | undefined): boolean {
  return raw?.kind === 'content' && raw.items.some((i) => i.kind === 'instrument');
}

/**
 * Raw positions of instruments under an "only" word: "solo piano", "just piano and strings",
 * "piano and cello only". The mark runs along instruments joined by "and"/"&"/"plus"/"with".
 */
function markOnly(raws: readonly Raw[]): Set<number> {
  const marked = new Set<number>();
  const walk = (start: number, step: 1 | -1): void => {
    let r = start;
    while (isInstrument(raws[r])) {
      marked.add(r);
      const joiner = raws[r + step];
      if (!(joiner?.kind === 'unknown' && JOINERS.has(joiner.phrase))) break;
      r += 2 * step;
    }
  };
  raws.forEach((raw, r) => {
    if (raw.kind !== 'only') return;
    if (ONLY_BEFORE.has(raw.phrase)) walk(r + 1, 1);
    if (ONLY_AFTER.has(raw.phrase) || ENSEMBLE_OF_NAMED.has(raw.phrase)) walk(r - 1, -1);
  });
  return marked;
}

/** How far (in tokens) a negator or intensifier reaches for its word. */
const SCOPE = 3;

export function matchPrompt(tokens: readonly string[], lexicon: Lexicon): MatchResult {
  const raws = scan(tokens, lexicon);
  const content: Content[] = [];
  const unknown: string[] = [];
  let recognised = 0;
  let negation = null as { index: number } | null;
  let intensity = null as { factor: number; phrase: string; index: number } | null;

  const onlyMarked = markOnly(raws);
  for (let r = 0; r < raws.length; r++) {
    const raw = at(raws, r);
    if (negation && raw.index - negation.index > SCOPE) negation = null;
    if (intensity && raw.index - intensity.index > SCOPE) intensity = null;
    switch (raw.kind) {
      case 'boundary':
        negation = null;
        intensity = null;
        break;
      case 'unknown':
        unknown.push(raw.phrase);
        break;
      case 'negator':
        recognised += raw.words;
        negation = { index: raw.index };
        break;
      case 'intensifier':
        recognised += raw.words;
        intensity = {
          factor: (intensity?.factor ?? 1) * raw.factor,
          phrase: intensity ? `${intensity.phrase} ${raw.phrase}` : raw.phrase,
          index: raw.index,
        };
        break;
      case 'only':
        // Counted as recognised only when it sits next to an instrument (checked below).
        break;
      case 'content': {
        recognised += raw.words;
        const negated = negation !== null;
        const only = onlyMarked.has(r);
        for (const item of raw.items) {
          if (item.kind === 'hint') {
            content.push({
              ...item,
              factor: intensity?.factor ?? 1,
              intensifier: intensity?.phrase ?? null,
              negated,
            } as Content);
          } else if (item.kind === 'instrument') {
            content.push({ ...item, negated, only: only && !negated } as Content);
          } else if (item.kind === 'genre' || item.kind === 'vocal') {
            content.push({ ...item, negated } as Content);
          } else {
            content.push(item as Content);
          }
        }
        negation = null;
        intensity = null;
        break;
      }
    }
  }
  return { content, unknown, recognised };
}
