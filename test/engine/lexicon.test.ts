/**
 * One test per lexicon entry: every word does what its data says, so a typo or a shadowed phrase
 * in the JSON shows up as a named failing test.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { interpret } from '../../engine/interpret/index.ts';
import { EXCLUDING_WORDS, NO_VOCAL_WORDS, VOCAL_WORDS } from '../../engine/interpret/match.ts';
import { FEMALE, INSTRUMENTAL_NATURE, MALE } from '../../engine/interpret/vocals.ts';
import { getPreset, presetNames } from '../../engine/presets.ts';
import type { GenreEntry, Hints, InstrumentEntry } from '../../engine/lexicon/index.ts';
import { PATCHES, type GenerationRequest, type SongSpec } from '../../engine/types.ts';

const read = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../engine/lexicon/${file}`, import.meta.url), 'utf8')) as T;
const moods = read<Record<string, Hints>>('moods.json');
const scenes = read<Record<string, Hints>>('scenes.json');
const production = read<Record<string, Hints>>('production.json');
const instruments = read<Record<string, InstrumentEntry>>('instruments.json');
const genres = read<Record<string, GenreEntry>>('genres.json');
const modifiers = read<{ intensifiers: Record<string, number>; negators: string[] }>('modifiers.json');
const statements = read<{ only: { before: string[]; after: string[] } }>('statements.json');
const ONLY_BEFORE = statements.only.before;
const ONLY_AFTER = statements.only.after;

const spec = (prompt: string, style: string | null = null, extra: Partial<GenerationRequest> = {}): SongSpec =>
  interpret({ prompt, duration: 60, style, instrumental: false, seed: 11, ...extra });
const patches = (s: SongSpec): string[] => s.instruments.map((i) => i.instrument);
const topGenre = (votes: Record<string, number>): string =>
  Object.entries(votes).reduce((best, e) => (e[1] > best[1] ? e : best))[0];
const direction = (x: number): string => (x > 0 ? 'up' : 'down');

/** Checks every declared hint field against a pop baseline (lofi for swing, which pop has at 0). */
function checkHints(t: import('ava').ExecutionContext, phrase: string, hints: Hints): void {
  const base = spec('', 'pop');
  const got = spec(phrase, 'pop');
  if (hints.valence) t.is(Math.sign(got.valence - base.valence), Math.sign(hints.valence), 'valence');
  if (hints.arousal) t.is(Math.sign(got.arousal - base.arousal), Math.sign(hints.arousal), 'arousal');
  if (hints.tempo) t.is(Math.sign(got.bpm - base.bpm), Math.sign(hints.tempo), 'bpm');
  if (hints.mode) t.is(got.key.mode, hints.mode, 'mode');
  if (hints.rain) t.true(got.effects.rain, 'rain');
  if (hints.lofi) t.true(got.effects.lofi, 'lofi');
  if (hints.reverb) t.is(Math.sign(got.effects.reverb - base.effects.reverb), Math.sign(hints.reverb), 'reverb');
  if (hints.reverbDecay) t.true(got.effects.reverbDecay > base.effects.reverbDecay, 'reverbDecay');
  if (hints.delay) t.is(Math.sign(got.effects.delay - base.effects.delay), Math.sign(hints.delay), 'delay');
  if (hints.density) t.is(Math.sign(got.density - base.density), Math.sign(hints.density), 'density');
  if (hints.brightness)
    t.is(Math.sign(got.effects.brightness - base.effects.brightness), Math.sign(hints.brightness - 1), 'brightness');
  if (hints.swing)
    t.is(Math.sign(spec(phrase, 'lofi').swing - spec('', 'lofi').swing), Math.sign(hints.swing), 'swing');
  // A setting's instruments join only a genre it suggests itself, so they are checked with no style stated.
  const placed = hints.setting ? spec(phrase) : got;
  for (const patch of Object.values(hints.instruments ?? {}))
    t.true(patches(placed).includes(patch), `instrument ${patch}`);
  if (hints.genres) t.is(spec(phrase).genre, topGenre(hints.genres), 'genre');
}

for (const [word, hints] of Object.entries(moods)) {
  test(`mood "${word}" moves valence ${direction(hints.valence!)} and arousal ${direction(hints.arousal!)}${hints.mode ? `, mode ${hints.mode}` : ''}`, (t) => {
    checkHints(t, word, hints);
  });
}

for (const [word, hints] of Object.entries(scenes)) {
  test(`scene "${word}" applies ${Object.keys(hints).join(', ')}`, (t) => {
    checkHints(t, word, hints);
  });
}

for (const [word, hints] of Object.entries(production)) {
  test(`production word "${word}" applies ${Object.keys(hints).join(', ')}`, (t) => {
    t.true(Object.keys(hints).length > 0);
    checkHints(t, word, hints);
  });
}

for (const [word, entry] of Object.entries(instruments)) {
  const kinds = [entry.patch, ...(entry.alike ?? [])];
  const played = entry.generic
    ? `a ${entry.roles[0]} role`
    : entry.ensemble
      ? `the ensemble ${Object.values(entry.ensemble).join(', ')}`
      : `the ${kinds.join(' or ')} patch`;
  test(`instrument "${word}" puts ${played} in the arrangement`, (t) => {
    const got = spec(word);
    if (entry.generic) t.true(got.instruments.some((i) => i.role === entry.roles[0]));
    else if (entry.ensemble)
      t.deepEqual(
        got.instruments,
        Object.entries(entry.ensemble).map(([role, instrument]) => ({ role, instrument })),
      );
    else
      t.true(
        kinds.some((k) => patches(got).includes(k)),
        `${patches(got).join(',')}`,
      );
    if (entry.note)
      t.true(
        got.trace.some((e) => e.source === word && e.effect.includes(entry.note!)),
        'note traced',
      );
    if (entry.genres) t.is(got.genre, topGenre(entry.genres), 'genre');
    if (entry.rain) t.true(got.effects.rain, 'rain');
  });
}

const camel = (phrase: string): string => phrase.replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
const KIT = (patch: string): boolean => patch.endsWith('Kit') || patch === 'orchestralPerc';
const BASS = (patch: string): boolean => patch.endsWith('Bass') || ['contrabass', 'tuba', 'timpani'].includes(patch);

test('a word that is the name of a patch is played by that patch, not a stand-in', (t) => {
  for (const [word, entry] of Object.entries(instruments)) {
    const name = camel(word);
    if ((PATCHES as readonly string[]).includes(name)) t.is(entry.patch as string, name, word);
    if (entry.note)
      t.false((PATCHES as readonly string[]).includes(name), `"${word}" has a stand-in note but a patch of its own`);
  }
});

test('kits take only the drums role, bass instruments only the bass role, and no other instrument takes either', (t) => {
  for (const [word, entry] of Object.entries(instruments)) {
    if (KIT(entry.patch)) t.deepEqual(entry.roles, ['drums'], word);
    else if (BASS(entry.patch)) t.deepEqual(entry.roles, ['bass'], word);
    else t.false(entry.roles.includes('drums') || entry.roles.includes('bass'), word);
  }
});

for (const name of presetNames()) {
  for (const alias of getPreset(name).aliases) {
    test(`preset alias "${alias}" selects ${name}`, (t) => {
      t.is(spec(alias).genre, name);
    });
  }
}

for (const [word, entry] of Object.entries(genres)) {
  test(`genre word "${word}" selects ${entry.genre}`, (t) => {
    t.is(spec(word).genre, entry.genre);
  });
}

for (const [word, factor] of Object.entries(modifiers.intensifiers)) {
  test(`intensifier "${word}" ${factor > 1 ? 'strengthens' : 'weakens'} the next mood word`, (t) => {
    const plain = spec('sad', 'jazz').valence;
    const modified = spec(`${word} sad`, 'jazz').valence;
    if (factor > 1) t.true(modified < plain, `${modified} vs ${plain}`);
    else t.true(modified > plain, `${modified} vs ${plain}`);
  });
}

for (const word of modifiers.negators) {
  test(`negator "${word}" flips the next mood word`, (t) => {
    const base = spec('', 'jazz').valence;
    t.true(spec(`${word} sad`, 'jazz').valence > base);
    t.true(spec(`${word} happy`, 'jazz').valence < base);
  });
}

for (const word of VOCAL_WORDS) {
  test(`vocal word "${word}" turns vocals on in an instrumental style`, (t) => {
    t.true(spec(word, 'techno').vocals.enabled);
  });
}

for (const word of NO_VOCAL_WORDS) {
  test(`"${word}" turns vocals off in a sung style`, (t) => {
    const got = spec(word, 'pop');
    t.false(got.vocals.enabled);
    t.true(got.excluded.includes('vocal'));
  });
}

for (const [word, role] of Object.entries(EXCLUDING_WORDS)) {
  test(`"${word}" excludes the ${role} role`, (t) => {
    const got = spec(word, 'rock');
    t.true(got.excluded.includes(role));
    t.false(got.instruments.some((i) => i.role === role));
  });
}

for (const word of ONLY_BEFORE) {
  test(`"${word} guitar" keeps only the guitar`, (t) => {
    t.deepEqual([...new Set(patches(spec(`${word} guitar`, 'rock')))], ['guitar']);
  });
}

for (const word of ONLY_AFTER) {
  test(`"guitar ${word}" keeps only the guitar`, (t) => {
    t.deepEqual([...new Set(patches(spec(`guitar ${word}`, 'rock')))], ['guitar']);
  });
}

for (const word of FEMALE) {
  test(`gender word "${word}" asks for a female voice`, (t) => {
    t.is(spec(`pop song ${word}`).vocals.gender, 'female');
  });
}

for (const word of MALE) {
  test(`gender word "${word}" asks for a male voice`, (t) => {
    t.is(spec(`pop song ${word}`).vocals.gender, 'male');
  });
}

for (const word of INSTRUMENTAL_NATURE) {
  test(`"${word}" keeps a sung style instrumental`, (t) => {
    t.false(spec(word, 'rock').vocals.enabled);
  });
}
