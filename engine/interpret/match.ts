/**
 * Lexicon matching: a greedy longest-phrase scan over the tokens ("car chase" before "chase",
 * "drum and bass" before "bass", "the tempo is slow" before "slow"), then a scope pass that hands each
 * intensifier and negator to the next content word in its clause ("not very happy", "no drums", "without
 * vocals"), carries a negation along a list ("no drums or bass"), lets a negation that follows its word take it
 * back ("vocals: none", "the saxophone is absent"), and marks the instruments an "only" or a "lead" cue names
 * (interpret/cues.ts).
 */
import { at } from '../checked.ts';
import type { GenreEntry, HintLexicon, Hints, InstrumentEntry, Lexicon } from '../lexicon/index.ts';
import type { Pace } from '../lexicon/sentences.ts';
import type { Delivery } from '../types.ts';
import { markCues } from './cues.ts';
import { timbreAt } from './timbre.ts';
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
export const NO_VOCAL_WORDS = new Set(['instrumental', 'instrumentals']);
/** After instruments, a duet or duo is those instruments alone ("a violin and viola duet"), not a singer's duet. */
const ENSEMBLE_OF_NAMED = new Set(['duet', 'duo']);
/** One-word exclusions. */
export const EXCLUDING_WORDS: Record<string, 'drums' | 'bass'> = {
  drumless: 'drums',
  beatless: 'drums',
  percussionless: 'drums',
  bassless: 'bass',
};

/** How a negated word was written, for the trace: "no singer", "vocals none", "not sad". */
interface Negation {
  negated: boolean;
  /** The negating words and whether they came after the word ("is absent"). */
  negator?: { phrase: string; after: boolean };
}

export type Content =
  | ({ kind: 'genre'; phrase: string; entry: GenreEntry; index: number } & Negation)
  | ({
      kind: 'hint';
      lexicon: HintLexicon;
      phrase: string;
      hints: Hints;
      index: number;
      factor: number;
      intensifier: string | null;
    } & Negation)
  | ({
      kind: 'instrument';
      phrase: string;
      entry: InstrumentEntry;
      index: number;
      only: boolean;
      /** Named as the lead ("the accordion takes the lead", "lead guitar"). */
      lead: boolean;
      /** The "only" cue that named it ("just", "only on"). */
      onlyBy?: string;
    } & Negation)
  | ({ kind: 'vocal'; phrase: string; index: number; delivery?: Delivery } & Negation)
  | { kind: 'noVocal'; phrase: string; index: number }
  | { kind: 'exclude'; phrase: string; role: 'drums' | 'bass'; index: number }
  /** A statement of tempo: "the tempo is slow", "mid-tempo", or an Italian mark with its range ("andante"). */
  | { kind: 'pace'; phrase: string; index: number; pace: Pace | null; range: [number, number] | null; factor: number }
  /** Words about the recording, not the music ("low quality", "mono", "live performance"). */
  | { kind: 'recording'; phrase: string; index: number }
  /** Voices and nothing else ("a cappella", "there are no instruments"). */
  | { kind: 'voicesOnly'; phrase: string; index: number }
  /** The instruments named are the whole line-up ("no other instrument", "no accompaniment"). */
  | { kind: 'exclusive'; phrase: string; index: number };

export interface MatchResult {
  content: Content[];
  /** Tokens no lexicon knew (function words included). */
  unknown: string[];
  /** How many tokens were recognised by some lexicon. */
  recognised: number;
  /** An "only" list named the singer too ("only piano and vocals"). */
  onlyVocal: boolean;
}

/** Omit over each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type Bare = DistributiveOmit<
  Content,
  'negated' | 'negator' | 'factor' | 'only' | 'onlyBy' | 'lead' | 'intensifier'
>;

export type Raw =
  | { kind: 'content'; items: Bare[]; phrase: string; index: number; words: number; lead?: boolean }
  | { kind: 'intensifier'; factor: number; phrase: string; index: number; words: number }
  | { kind: 'negator'; phrase: string; index: number; words: number }
  | { kind: 'postNegator'; phrase: string; index: number; words: number }
  | { kind: 'cue'; cue: 'only' | 'lead'; before: boolean; after: boolean; phrase: string; index: number; words: number }
  | { kind: 'boundary'; index: number; words: number }
  | { kind: 'unknown'; phrase: string; index: number; words: number };

function lookup(phrase: string, lexicon: Lexicon, index: number): Raw | null {
  const items: Bare[] = [];
  const words = phrase.split(' ');
  const genre = lexicon.genres.get(phrase);
  if (genre) items.push({ kind: 'genre', phrase, entry: genre, index });
  const statements = lexicon.statements.phrases.get(phrase) ?? [];
  // A tempo statement is the whole reading of its words ("slow tempo"), arousal included: not a mood word as well.
  const paced = statements.some((s) => s.kind === 'pace' || s.kind === 'mark');
  for (const [lexiconName, map] of [
    ['mood', lexicon.moods],
    ['scene', lexicon.scenes],
    ['production', lexicon.production],
  ] as const) {
    const hints = map.get(phrase);
    if (hints && !(paced && lexiconName === 'mood'))
      items.push({ kind: 'hint', lexicon: lexiconName, phrase, hints, index });
  }
  const instrument = lexicon.instruments.get(phrase);
  if (instrument) items.push({ kind: 'instrument', phrase, entry: instrument, index });
  for (const s of statements) {
    if (s.kind === 'pace') items.push({ kind: 'pace', phrase, index, pace: s.pace, range: null });
    else if (s.kind === 'mark') items.push({ kind: 'pace', phrase, index, pace: null, range: s.range });
    else if (s.kind === 'recording' || s.kind === 'voicesOnly' || s.kind === 'exclusive') {
      items.push({ kind: s.kind, phrase, index });
    }
  }
  const delivery = lexicon.voices.deliveries.get(phrase);
  // A vocal word inside a longer phrase ("pop song") still asks for a singer; an instrument's name does not ("singing bowls").
  // A sound word is no singer either ("a chorus effect").
  const named = items.some((i) => i.kind !== 'hint' || i.lexicon !== 'production') || words.length === 1;
  const sings =
    lexicon.voices.singing.has(phrase) ||
    delivery !== undefined ||
    (named && words.some((w) => VOCAL_WORDS.has(w)) && !instrument?.unsung);
  if (sings) items.push({ kind: 'vocal', phrase, index, ...(delivery ? { delivery } : {}) });
  if (words.length === 1 && NO_VOCAL_WORDS.has(phrase)) items.push({ kind: 'noVocal', phrase, index });
  const excluding = words.length === 1 ? EXCLUDING_WORDS[phrase] : undefined;
  if (excluding) items.push({ kind: 'exclude', phrase, role: excluding, index });
  if (items.length > 0) return { kind: 'content', items, phrase, index, words: words.length };
  const cues = statements.filter((s) => s.kind === 'cue');
  const cue = cues[0];
  if (cue) {
    const sides = new Set(cues.filter((c) => c.cue === cue.cue).map((c) => c.side));
    const where = { phrase, index, words: words.length };
    return { kind: 'cue', cue: cue.cue, before: sides.has('before'), after: sides.has('after'), ...where };
  }
  if (statements.some((s) => s.kind === 'postNegator'))
    return { kind: 'postNegator', phrase, index, words: words.length };
  const factor = lexicon.intensifiers.get(phrase);
  if (factor !== undefined) return { kind: 'intensifier', factor, phrase, index, words: words.length };
  if (lexicon.negators.has(phrase)) return { kind: 'negator', phrase, index, words: words.length };
  return null;
}

const phraseStarts = new WeakMap<Lexicon, Map<string, number>>();

/**
 * The longest phrase of any word list that starts with each word, so the scan tries only the lengths a phrase
 * starting there can have: most words start none longer than themselves.
 */
function longestFrom(lexicon: Lexicon): Map<string, number> {
  const cached = phraseStarts.get(lexicon);
  if (cached) return cached;
  const longest = new Map<string, number>();
  const maps: Iterable<string>[] = [
    lexicon.genres.keys(),
    lexicon.moods.keys(),
    lexicon.scenes.keys(),
    lexicon.production.keys(),
    lexicon.instruments.keys(),
    lexicon.intensifiers.keys(),
    lexicon.negators,
    lexicon.statements.phrases.keys(),
    lexicon.voices.singing,
    lexicon.voices.deliveries.keys(),
  ];
  for (const phrases of maps) {
    for (const phrase of phrases) {
      const words = phrase.split(' ');
      const first = words[0] ?? '';
      longest.set(first, Math.max(longest.get(first) ?? 1, words.length));
    }
  }
  phraseStarts.set(lexicon, longest);
  return longest;
}

function scan(tokens: readonly string[], lexicon: Lexicon): Raw[] {
  const raws: Raw[] = [];
  const starts = longestFrom(lexicon);
  let i = 0;
  while (i < tokens.length) {
    const token = at(tokens, i);
    if (token === BOUNDARY) {
      raws.push({ kind: 'boundary', index: i, words: 1 });
      i += 1;
      continue;
    }
    let found: Raw | null = null;
    const timbre = timbreAt(tokens, i, lexicon);
    for (let n = Math.min(starts.get(token) ?? 1, tokens.length - i); n >= 1 && !found; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.includes(BOUNDARY)) continue;
      // An adjective and its noun ("distorted strummed guitar") beat any shorter phrase inside them.
      if (timbre && n <= timbre.words) break;
      found = lookup(slice.join(' '), lexicon, i);
    }
    if (!found && timbre) {
      const { phrase, words, entry, lead } = timbre;
      found = {
        kind: 'content',
        items: [{ kind: 'instrument', phrase, entry, index: i }],
        phrase,
        index: i,
        words,
        lead,
      };
    }
    if (ENSEMBLE_OF_NAMED.has(token) && isInstrument(raws[raws.length - 1])) {
      found = { kind: 'cue', cue: 'only', before: false, after: true, phrase: token, index: i, words: 1 };
    }
    raws.push(found ?? { kind: 'unknown', phrase: token, index: i, words: 1 });
    i += found ? found.words : 1;
  }
  return raws;
}

export function isInstrument(raw: Raw | undefined): boolean {
  return raw?.kind === 'content' && raw.items.some((i) => i.kind === 'instrument');
}

/** How far (in tokens) a negator or intensifier reaches for its word, and how far back a post-negator does. */
const SCOPE = 3;
const POST_SCOPE = 2;
/** Words that carry a negation on to the next item of a list ("no drums or bass", "neither piano nor strings"). */
const LIST_JOINERS = new Set(['or', 'nor', 'and', '&']);

export function matchPrompt(tokens: readonly string[], lexicon: Lexicon): MatchResult {
  const raws = scan(tokens, lexicon);
  const content: Content[] = [];
  const unknown: string[] = [];
  let recognised = 0;
  let negation = null as { index: number; phrase: string } | null;
  let intensity = null as { factor: number; phrase: string; index: number } | null;
  /** The last negated word, whose negation a joiner may carry to the next word of its kind. */
  let listed = null as { kind: Content['kind']; phrase: string; end: number; joined: boolean } | null;
  let last = null as { items: Content[]; end: number } | null;

  const cues = markCues(raws);
  for (let r = 0; r < raws.length; r++) {
    const raw = at(raws, r);
    if (negation && raw.index - negation.index > SCOPE) negation = null;
    if (intensity && raw.index - intensity.index > SCOPE) intensity = null;
    switch (raw.kind) {
      case 'boundary':
        negation = null;
        intensity = null;
        listed = null;
        last = null;
        break;
      case 'unknown':
        unknown.push(raw.phrase);
        if (listed && LIST_JOINERS.has(raw.phrase) && raw.index === listed.end && !listed.joined) {
          listed = { ...listed, end: raw.index + 1, joined: true };
        } else {
          listed = null;
        }
        break;
      case 'negator':
        recognised += raw.words;
        negation = { index: raw.index, phrase: raw.phrase };
        break;
      case 'postNegator':
        recognised += raw.words;
        if (last && raw.index - last.end <= POST_SCOPE) {
          for (const item of last.items) negateAfter(item, raw.phrase);
        }
        last = null;
        break;
      case 'intensifier':
        recognised += raw.words;
        intensity = {
          factor: (intensity?.factor ?? 1) * raw.factor,
          phrase: intensity ? `${intensity.phrase} ${raw.phrase}` : raw.phrase,
          index: raw.index,
        };
        break;
      case 'cue':
        // Counted as recognised only when it sits next to an instrument (checked below).
        break;
      case 'content': {
        recognised += raw.words;
        const continued =
          listed?.joined === true && raw.index === listed.end && raw.items.some((i) => i.kind === listed?.kind);
        const by = negation?.phrase ?? (continued ? listed?.phrase : undefined);
        const negated = by !== undefined;
        const negator = by === undefined ? {} : { negator: { phrase: by, after: false } };
        const onlyBy = negated ? undefined : cues.only.get(r);
        const only = onlyBy !== undefined;
        const lead = (cues.lead.has(r) || raw.lead === true) && !negated;
        const pushed: Content[] = [];
        for (const item of raw.items) {
          const factor = intensity?.factor ?? 1;
          if (item.kind === 'hint') {
            pushed.push({ ...item, factor, intensifier: intensity?.phrase ?? null, negated, ...negator });
          } else if (item.kind === 'instrument') {
            pushed.push({ ...item, negated, ...negator, only, lead, ...(onlyBy ? { onlyBy } : {}) });
          } else if (item.kind === 'vocal') {
            if (!cues.unsung.has(r)) pushed.push({ ...item, negated, ...negator });
          } else if (item.kind === 'genre') {
            pushed.push({ ...item, negated, ...negator });
          } else if (item.kind === 'pace') {
            pushed.push({ ...item, factor });
          } else {
            pushed.push(item);
          }
        }
        content.push(...pushed);
        const kind = raw.items.find((i) => i.kind === 'instrument' || i.kind === 'vocal')?.kind;
        listed = negated && kind && by ? { kind, phrase: by, end: raw.index + raw.words, joined: false } : null;
        last = { items: pushed, end: raw.index + raw.words };
        negation = null;
        intensity = null;
        break;
      }
    }
  }
  return { content, unknown, recognised, onlyVocal: cues.onlyVocal };
}

/** "vocals: none", "the saxophone is absent": the word just matched is taken back. */
function negateAfter(item: Content, phrase: string): void {
  if (item.kind === 'instrument') item.only = false;
  if (item.kind === 'instrument' || item.kind === 'vocal' || item.kind === 'genre' || item.kind === 'hint') {
    item.negated = true;
    item.negator = { phrase, after: true };
  }
}

/** A content word as written with its negation, for the trace: "no singer", "vocals none". */
export function saidAs(c: { phrase: string; negator?: { phrase: string; after: boolean } }): string {
  if (!c.negator) return c.phrase;
  return c.negator.after ? `${c.phrase} ${c.negator.phrase}` : `${c.negator.phrase} ${c.phrase}`;
}
