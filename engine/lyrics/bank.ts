/**
 * The word banks lyrics are written from (banks.json, all words in the CMU dictionary, checked by a test):
 * line templates per kind of line ending, and per theme the words that fill the templates. A prompt's
 * themes are found by trigger words ("summer", "beach" -> summer); a prompt without a known theme gets
 * the themes of its mood quadrant, so every prompt can be sung.
 */
import { readFileSync } from 'node:fs';

/** What the word that ends a line is, which decides the templates it can end: noun, adjective, verb, adverb. */
export type EndKind = 'n' | 'a' | 'v' | 'x';
export const END_KINDS: readonly EndKind[] = ['n', 'a', 'v', 'x'];

/**
 * Words for the template slots {N} noun, {A} adjective, {V} verb, {G} verb in -ing, {P} a place or time to be
 * in ("in the golden afternoon"), and line endings.
 */
export interface WordSet {
  N: string[];
  P: string[];
  A: string[];
  V: string[];
  G: string[];
  ends: Record<EndKind, string[]>;
}

export interface Theme extends WordSet {
  triggers: string[];
}

export interface Banks {
  /** Per end kind; "+|" marks a template for happy songs only, "-|" for sad ones. E is the end word. */
  templates: Record<EndKind, string[]>;
  /** Short templates for a chorus's first line, the hook (same marks and slots as templates). */
  hooks: Record<EndKind, string[]>;
  /** Mass nouns ("sand", "music") never follow "a" or "every"; bare nouns ("home") take no article; weak ends ("sign", "floor") end a line only in their theme;
   * notFeelings are adjectives of places and things that no one feels ("wide", "dusty"). */
  grammar: { mass: string[]; bare: string[]; weakEnds: string[]; notFeelings: string[] };
  /** Words by the mood they carry, and pairs that contradict each other when sung in one line. */
  mood: { bright: string[]; dark: string[]; calm: string[]; lively: string[]; opposites: [string, string][] };
  /** Phrases (with slots, "+|"/"-|" marks as for templates) that open a long line. */
  openers: string[];
  /** Unstressed one-syllable words that pad a short line. */
  fillers: string[];
  general: WordSet;
  /** Mood quadrant -> themes used when the prompt names none. */
  moods: Record<'bright' | 'warm' | 'blue' | 'restless', string[]>;
  themes: Record<string, Theme>;
}

let banks: Banks | null = null;

export function loadBanks(): Banks {
  banks ??= JSON.parse(readFileSync(new URL('./banks.json', import.meta.url), 'utf8')) as Banks;
  return banks;
}

/** Theme names found in the prompt, in the order they appear; the mood's themes when there are none. */
export function chooseThemes(
  prompt: string,
  valence: number,
  arousal: number,
): { themes: string[]; fromPrompt: boolean } {
  const { themes, moods } = loadBanks();
  const tokens = prompt
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter(Boolean);
  const found: string[] = [];
  for (const token of tokens) {
    for (const [name, theme] of Object.entries(themes)) {
      if (theme.triggers.includes(token) && !found.includes(name)) found.push(name);
    }
  }
  if (found.length > 0) return { themes: found.slice(0, 3), fromPrompt: true };
  const quadrant = valence >= 0 ? (arousal >= 0 ? 'bright' : 'warm') : arousal >= 0 ? 'restless' : 'blue';
  return { themes: moods[quadrant], fromPrompt: false };
}
