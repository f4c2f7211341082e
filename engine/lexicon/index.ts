/**
 * The word lists that turn a prompt into musical intent, kept as JSON data next to this loader:
 *
 *   moods.json       word -> (Δvalence, Δarousal) plus optional tempo/mode/brightness nudges
 *   scenes.json      places and situations -> VA, genre votes, instruments, textures, rain, space
 *   production.json  sound words -> reverb, delay, brightness, density, lo-fi treatment, swing
 *   instruments.json instrument words -> a patch and the roles it prefers (plus optional hints)
 *   genres.json      extra genre words (the presets' own `aliases` are added at load time)
 *   modifiers.json   intensifiers (factor) and negators
 *   unplayable.json  instrument words no patch plays, with why ("kazoo"), for the warnings
 *   languages/*.json per language, its phrases mapped to English lexicon phrases (see interpret/translate.ts)
 *
 * Loaded synchronously, validated (a bad entry throws with the file and the phrase), cached.
 */
import { existsSync, readdirSync } from 'node:fs';
import { normalizePhrase } from '../interpret/tokenize.ts';
import { phraseKey } from '../interpret/translate.ts';
import { InvalidLexiconError, isRecord, readJson } from './read.ts';
import {
  loadStatements,
  loadTimbres,
  loadVoices,
  type Statements,
  type Timbres,
  type VoiceWords,
} from './sentences.ts';
import { MODES, PATCHES, type Mode, type Patch, type Preset, type Role } from '../types.ts';

/** Nudges a word gives. Every field is optional; numbers add up across words, `brightness` multiplies. */
export interface Hints {
  valence?: number;
  arousal?: number;
  /** -1…1: moves the tempo inside the genre's range beyond what arousal does ("slow", "fast"). */
  tempo?: number;
  /** A preferred mode when the valence band allows it ("dreamy" -> lydian, "dark" -> harmonic minor). */
  mode?: Mode;
  /** Weak genre votes used only when the prompt names no genre. */
  genres?: Record<string, number>;
  /** Patches wished for per role; applied softly (an already present patch is kept). */
  instruments?: Partial<Record<Role, Patch>>;
  rain?: boolean;
  lofi?: boolean;
  /** Added to the reverb send, the reverb decay (s), the delay send, the density and the swing. */
  reverb?: number;
  reverbDecay?: number;
  delay?: number;
  density?: number;
  swing?: number;
  /** Multiplies the master low-pass cutoff. */
  brightness?: number;
  /**
   * A place the music is played in ("church", "tavern"), not a scene it paints: its instruments join only a genre
   * it suggests itself, never one stated outright ("a techno track played in a church" gets no organ).
   */
  setting?: boolean;
}

export interface InstrumentEntry extends Hints {
  patch: Patch;
  /** Roles this instrument prefers, best first ("piano": chords, then lead). */
  roles: Role[];
  /** A generic word ("drums", "bass") only fills its role when the style lacks it. */
  generic?: boolean;
  /** Patches that already are this instrument: "guitar" is satisfied by the style's distorted guitar, and "no guitars" removes it. */
  alike?: Patch[];
  /**
   * Patches a negation removes besides `alike`: "no piano" removes pop's bright piano too, while asking for a piano
   * still brings the grand in.
   */
  refuses?: Patch[];
  /** A group the word names ("string quartet"): the patch of each role when the prompt names no genre, and nothing else plays. */
  ensemble?: Partial<Record<Role, Patch>>;
  /** Why the patch stands in for the word, where the bank lacks the instrument ("lute played by the nylon-string guitar"). */
  note?: string;
  /** A singing word inside an instrument's name asks for no singer ("singing bowls"). */
  unsung?: boolean;
}

export interface GenreEntry {
  genre: string;
  weight: number;
  /** For a music with no style of its own: what plays it ("mariachi is played as salsa, the nearest style"). */
  note?: string;
  /**
   * The word names where or what the music is for ("video game", "jazz bar"), not the music: it chooses the genre
   * only when no genre is stated outright, and never blends into one that is.
   */
  setting?: boolean;
  /** A dance with a tempo of its own ("tarantella"): its pulses a minute, in place of the style's range. */
  bpm?: { min: number; max: number };
}

export type HintLexicon = 'mood' | 'scene' | 'production';

export interface Lexicon {
  moods: ReadonlyMap<string, Hints>;
  scenes: ReadonlyMap<string, Hints>;
  production: ReadonlyMap<string, Hints>;
  instruments: ReadonlyMap<string, InstrumentEntry>;
  /** Extra genre words and every preset alias (weight 1). */
  genres: ReadonlyMap<string, GenreEntry>;
  intensifiers: ReadonlyMap<string, number>;
  negators: ReadonlySet<string>;
  /** Instrument words no patch plays ("kazoo") and why: reported, never silently dropped. */
  unplayable: ReadonlyMap<string, string>;
  /** One table per language the engine reads besides English. */
  languages: readonly LanguageTable[];
  /** Sentence-level readings: tempo statements, who plays and leads, recording words (lexicon/sentences.ts). */
  statements: Statements;
  voices: VoiceWords;
  timbres: Timbres;
}

/** A language's phrases (folded: lower case, no accents) mapped to English lexicon phrases. */
export interface LanguageTable {
  /** ISO 639-1 code, the file's name ("es"). */
  code: string;
  name: string;
  phrases: ReadonlyMap<string, string>;
  /** The longest phrase in words (word-matched languages) and in characters (substring-matched ones). */
  maxWords: number;
  maxLength: number;
  /** Matched by substring, for languages written without spaces (Japanese). */
  substring: boolean;
  /** Split unknown words into two known ones (German "Klaviermusik"). */
  compounds: boolean;
  /** Inflectional endings tried off an unknown word, longest first (German "-es": "fröhliches" -> "fröhlich"). */
  endings: readonly string[];
}

export { InvalidLexiconError } from './read.ts';

const ROLES: readonly Role[] = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture', 'vocal'];
const HINT_FIELDS = [
  'valence',
  'arousal',
  'tempo',
  'mode',
  'genres',
  'instruments',
  'rain',
  'lofi',
  'reverb',
  'reverbDecay',
  'delay',
  'density',
  'swing',
  'brightness',
  'setting',
];
const RANGES: Record<string, [number, number]> = {
  valence: [-1, 1],
  arousal: [-1, 1],
  tempo: [-1, 1],
  reverb: [-1, 1],
  reverbDecay: [-5, 10],
  delay: [-1, 1],
  density: [-1, 1],
  swing: [-1, 1],
  brightness: [0.1, 4],
};

const DEFAULT_FOLDER = new URL('./', import.meta.url);

function validateHints(
  entry: Record<string, unknown>,
  extraFields: string[],
  where: string,
  fail: (m: string) => never,
  genreNames: ReadonlySet<string>,
): void {
  for (const [field, value] of Object.entries(entry)) {
    if (!HINT_FIELDS.includes(field) && !extraFields.includes(field)) fail(`${where}: unknown field "${field}"`);
    const range = RANGES[field];
    if (range) {
      if (typeof value !== 'number' || value < range[0] || value > range[1])
        fail(`${where}: ${field} must be a number in ${range[0]}…${range[1]}`);
    }
    if ((field === 'rain' || field === 'lofi' || field === 'setting') && typeof value !== 'boolean')
      fail(`${where}: ${field} must be a boolean`);
    if (field === 'mode' && !MODES.includes(value as Mode)) fail(`${where}: mode "${String(value)}" is not a mode`);
    if (field === 'genres') {
      if (!isRecord(value)) fail(`${where}: genres must be an object`);
      for (const [genre, weight] of Object.entries(value as Record<string, unknown>)) {
        if (!genreNames.has(genre)) fail(`${where}: genre "${genre}" has no preset`);
        if (typeof weight !== 'number' || weight <= 0 || weight > 1) fail(`${where}: genre weight must be in (0, 1]`);
      }
    }
    if (field === 'instruments') {
      if (!isRecord(value)) fail(`${where}: instruments must be an object`);
      for (const [role, patch] of Object.entries(value as Record<string, unknown>)) {
        if (!ROLES.includes(role as Role)) fail(`${where}: "${role}" is not a role`);
        if (!(PATCHES as readonly string[]).includes(patch as string))
          fail(`${where}: "${String(patch)}" is not a patch`);
      }
    }
  }
}

function loadHintFile(
  folder: URL,
  file: string,
  genreNames: ReadonlySet<string>,
  requireVA: boolean,
  seen: Map<string, string>,
): Map<string, Hints> {
  const raw = readJson(folder, file);
  const fail = (problem: string): never => {
    throw new InvalidLexiconError(file, problem);
  };
  if (!isRecord(raw)) fail('must be an object of phrase -> entry');
  const result = new Map<string, Hints>();
  for (const [phrase, entry] of Object.entries(raw as Record<string, unknown>)) {
    const key = normalizePhrase(phrase);
    if (key === '') fail(`"${phrase}" has no words`);
    if (seen.has(key)) fail(`"${phrase}" is also in ${seen.get(key)}`);
    seen.set(key, file);
    if (!isRecord(entry)) fail(`"${phrase}" must map to an object`);
    const e = entry as Record<string, unknown>;
    validateHints(e, [], `"${phrase}"`, fail, genreNames);
    if (
      requireVA &&
      (typeof e.valence !== 'number' || typeof e.arousal !== 'number' || (e.valence === 0 && e.arousal === 0))
    ) {
      fail(`"${phrase}" needs a valence and an arousal, not both 0`);
    }
    if (Object.keys(e).length === 0) fail(`"${phrase}" has no effect`);
    result.set(key, e as Hints);
  }
  return result;
}

/** Builds the lexicon for a set of presets (their aliases become genre words) from a folder of the six files. */
export function loadLexicon(presets: readonly Preset[], folder: URL = DEFAULT_FOLDER): Lexicon {
  const genreNames = new Set(presets.map((p) => p.name));
  const seen = new Map<string, string>();
  const moods = loadHintFile(folder, 'moods.json', genreNames, true, seen);
  const scenes = loadHintFile(folder, 'scenes.json', genreNames, false, seen);
  const production = loadHintFile(folder, 'production.json', genreNames, false, seen);

  const instruments = new Map<string, InstrumentEntry>();
  const rawInstruments = readJson(folder, 'instruments.json');
  const failInstrument = (problem: string): never => {
    throw new InvalidLexiconError('instruments.json', problem);
  };
  if (!isRecord(rawInstruments)) failInstrument('must be an object');
  for (const [phrase, entry] of Object.entries(rawInstruments as Record<string, unknown>)) {
    const key = normalizePhrase(phrase);
    if (seen.has(key)) failInstrument(`"${phrase}" is also in ${seen.get(key)}`);
    seen.set(key, 'instruments.json');
    if (!isRecord(entry)) failInstrument(`"${phrase}" must map to an object`);
    const e = entry as Record<string, unknown>;
    validateHints(
      e,
      ['patch', 'roles', 'generic', 'alike', 'refuses', 'ensemble', 'note', 'unsung'],
      `"${phrase}"`,
      failInstrument,
      genreNames,
    );
    if (!(PATCHES as readonly string[]).includes(e.patch as string))
      failInstrument(`"${phrase}": patch "${String(e.patch)}" is unknown`);
    for (const field of ['alike', 'refuses'] as const) {
      const list = e[field];
      if (
        list !== undefined &&
        (!Array.isArray(list) || !list.every((p) => (PATCHES as readonly string[]).includes(p as string)))
      ) {
        failInstrument(`"${phrase}": ${field} must be a list of patches`);
      }
    }
    if (e.ensemble !== undefined) {
      const members = isRecord(e.ensemble) ? Object.entries(e.ensemble) : [];
      if (
        members.length === 0 ||
        !members.every(
          ([role, patch]) => ROLES.includes(role as Role) && (PATCHES as readonly string[]).includes(patch as string),
        )
      ) {
        failInstrument(`"${phrase}": ensemble must map roles to patches`);
      }
    }
    if (!Array.isArray(e.roles) || e.roles.length === 0 || !e.roles.every((r) => ROLES.includes(r as Role))) {
      failInstrument(`"${phrase}": roles must be a non-empty list of roles`);
    }
    instruments.set(key, e as unknown as InstrumentEntry);
  }

  const genres = new Map<string, GenreEntry>();
  const rawGenres = readJson(folder, 'genres.json');
  const failGenre = (problem: string): never => {
    throw new InvalidLexiconError('genres.json', problem);
  };
  if (!isRecord(rawGenres)) failGenre('must be an object');
  for (const [phrase, entry] of Object.entries(rawGenres as Record<string, unknown>)) {
    const e = entry as GenreEntry;
    if (!isRecord(entry) || !genreNames.has(e.genre))
      failGenre(`"${phrase}": genre "${String(e?.genre)}" has no preset`);
    if (typeof e.weight !== 'number' || e.weight <= 0 || e.weight > 1)
      failGenre(`"${phrase}": weight must be in (0, 1]`);
    if (e.note !== undefined && typeof e.note !== 'string') failGenre(`"${phrase}": note must be a string`);
    if (e.setting !== undefined && typeof e.setting !== 'boolean')
      failGenre(`"${phrase}": setting must be true or false`);
    const { bpm } = e;
    if (
      bpm !== undefined &&
      !(isRecord(bpm) && typeof bpm.min === 'number' && typeof bpm.max === 'number' && bpm.min < bpm.max)
    ) {
      failGenre(`"${phrase}": bpm must be {"min", "max"} with min below max`);
    }
    genres.set(normalizePhrase(phrase), e);
  }
  // Preset aliases are the strongest genre words; they win over an extra word spelled the same, which may still
  // say that the alias names a setting ("video game").
  for (const preset of presets) {
    for (const alias of [preset.name, ...preset.aliases]) {
      const key = normalizePhrase(alias);
      const setting = genres.get(key)?.setting === true;
      genres.set(key, { genre: preset.name, weight: 1, ...(setting ? { setting } : {}) });
    }
  }

  const rawModifiers = readJson(folder, 'modifiers.json') as {
    intensifiers?: Record<string, number>;
    negators?: string[];
  };
  if (!isRecord(rawModifiers.intensifiers) || !Array.isArray(rawModifiers.negators)) {
    throw new InvalidLexiconError('modifiers.json', 'needs "intensifiers" (object) and "negators" (list)');
  }
  const intensifiers = new Map(
    Object.entries(rawModifiers.intensifiers).map(([k, v]) => [normalizePhrase(k), v] as const),
  );
  const negators = new Set(rawModifiers.negators.map(normalizePhrase));
  return {
    moods,
    scenes,
    production,
    instruments,
    genres,
    intensifiers,
    negators,
    unplayable: loadUnplayable(folder, seen),
    languages: loadLanguages(folder),
    statements: loadStatements(folder),
    voices: loadVoices(folder),
    timbres: loadTimbres(folder),
  };
}

/** Optional: a folder without the file has no unplayable words. */
function loadUnplayable(folder: URL, seen: ReadonlyMap<string, string>): Map<string, string> {
  const result = new Map<string, string>();
  if (!existsSync(new URL('unplayable.json', folder))) return result;
  const raw = readJson(folder, 'unplayable.json');
  const fail = (problem: string): never => {
    throw new InvalidLexiconError('unplayable.json', problem);
  };
  if (!isRecord(raw)) fail('must be an object of phrase -> reason');
  for (const [phrase, reason] of Object.entries(raw as Record<string, unknown>)) {
    const key = normalizePhrase(phrase);
    if (seen.has(key)) fail(`"${phrase}" is also in ${seen.get(key)}`);
    if (typeof reason !== 'string' || reason === '') fail(`"${phrase}" needs a reason`);
    result.set(key, reason as string);
  }
  return result;
}

/** Optional: every languages/<code>.json, sorted by code. */
export function loadLanguages(folder: URL): LanguageTable[] {
  const dir = new URL('languages/', folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const raw = readJson(dir, file) as {
        name?: unknown;
        phrases?: unknown;
        substring?: unknown;
        compounds?: unknown;
        endings?: unknown;
      };
      const fail = (problem: string): never => {
        throw new InvalidLexiconError(`languages/${file}`, problem);
      };
      if (typeof raw.name !== 'string' || !isRecord(raw.phrases)) fail('needs "name" (string) and "phrases" (object)');
      const substring = raw.substring === true;
      const phrases = new Map<string, string>();
      for (const [phrase, english] of Object.entries(raw.phrases as Record<string, unknown>)) {
        const key = substring ? phrase.normalize('NFKC').toLowerCase().trim() : phraseKey(phrase);
        if (key === '') fail(`"${phrase}" has no words`);
        if (typeof english !== 'string' || english.trim() === '') fail(`"${phrase}" must map to an English phrase`);
        if (phrases.has(key) && phrases.get(key) !== english)
          fail(`"${phrase}" is listed twice with different meanings`);
        phrases.set(key, english as string);
      }
      const keys = [...phrases.keys()];
      return {
        code: file.replace(/\.json$/, ''),
        name: raw.name as string,
        phrases,
        maxWords: Math.max(1, ...keys.map((k) => k.split(' ').length)),
        maxLength: Math.max(1, ...keys.map((k) => k.length)),
        substring,
        compounds: raw.compounds === true,
        endings: Array.isArray(raw.endings) ? raw.endings.map(String).sort((a, b) => b.length - a.length) : [],
      };
    });
}

let cached: Lexicon | null = null;

/** The lexicon for the shipped presets, built once: it is read-only data. */
export function getLexicon(presets: () => readonly Preset[]): Lexicon {
  cached ??= loadLexicon(presets());
  return cached;
}
