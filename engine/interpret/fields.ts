/**
 * The request's musical fields (`bpm`, `key`, `time_signature`, `instruments`, `exclude`, `energy`). A field
 * is an explicit value the caller set outright, so it enters interpretation exactly where a value written in
 * the prompt does (explicit.ts) and wins over it; where the two disagree, a warning says which one was kept.
 */
import { at } from '../checked.ts';
import { getLexicon, type InstrumentEntry, type Lexicon } from '../lexicon/index.ts';
import { getPreset, presetNames } from '../presets.ts';
import { RequestError } from '../errors.ts';
import type { Mode, MusicalFields, PitchClass, Role } from '../types.ts';
import { parseMeter, meterName } from '../compose/meter.ts';
import { MAX_BPM, MIN_BPM, spellTonic, type Explicit } from './explicit.ts';

export { MIN_BPM, MAX_BPM };

const MODES: Record<string, Mode> = {
  major: 'major',
  minor: 'minor',
  dorian: 'dorian',
  mixolydian: 'mixolydian',
  lydian: 'lydian',
  phrygian: 'phrygian',
  'harmonic minor': 'harmonicMinor',
};
/** The mode words the `key` field accepts, as a caller writes them. */
export const KEY_MODES = Object.keys(MODES);

/** "F# minor", "bb Major", "D dorian", "A harmonic minor"; null for anything else. */
export function parseKeyName(text: string): { tonic: PitchClass; mode: Mode } | null {
  const match = /^\s*([A-Ga-g])\s*(#|♯|b|♭)?\s+(harmonic\s+minor|[a-z]+)\s*$/i.exec(text);
  if (!match) return null;
  const mode = MODES[at(match, 3).toLowerCase().replace(/\s+/g, ' ')];
  return mode ? { tonic: spellTonic(at(match, 1), match[2]), mode } : null;
}

/** Role words `exclude` takes besides instrument words. */
const ROLE_WORDS: Record<string, Role> = {
  drums: 'drums',
  percussion: 'drums',
  bass: 'bass',
  chords: 'chords',
  pad: 'pad',
  pads: 'pad',
  lead: 'lead',
  melody: 'lead',
  arp: 'arp',
  arpeggio: 'arp',
  texture: 'texture',
  textures: 'texture',
  vocals: 'vocal',
  vocal: 'vocal',
  voice: 'vocal',
  singing: 'vocal',
};
export const EXCLUDABLE_ROLES = Object.keys(ROLE_WORDS);

export const roleWord = (name: string): Role | undefined => ROLE_WORDS[name.trim().toLowerCase()];
export const instrumentWord = (lexicon: Lexicon, name: string): InstrumentEntry | undefined =>
  lexicon.instruments.get(name.trim().toLowerCase());

const SHOWN_MODES: Record<Mode, string> = {
  major: 'major',
  minor: 'minor',
  dorian: 'dorian',
  mixolydian: 'mixolydian',
  lydian: 'lydian',
  phrygian: 'phrygian',
  harmonicMinor: 'harmonic minor',
};

/**
 * The prompt's explicit values with the fields laid over them. The trace then names the field as the source
 * ("bpm field"), and every disagreement with the prompt is a warning.
 */
export function applyFields(explicit: Explicit, music: MusicalFields | undefined, warnings: string[]): Explicit {
  if (!music) return explicit;
  const merged: Explicit = { ...explicit, found: [...explicit.found] };
  const said = (kind: Explicit['found'][number]['kind']) => explicit.found.find((f) => f.kind === kind)?.source;
  const replace = (
    kinds: Explicit['found'][number]['kind'][],
    source: string,
    kind: Explicit['found'][number]['kind'],
  ) => {
    merged.found = merged.found.filter((f) => !kinds.includes(f.kind));
    merged.found.push({ source, kind });
  };

  if (music.bpm !== undefined) {
    const bpm = Math.round(Math.min(MAX_BPM, Math.max(MIN_BPM, music.bpm)));
    if (explicit.bpm !== null && explicit.bpm !== bpm)
      warnings.push(`The prompt says "${said('bpm')}" but the "bpm" field asks for ${bpm}: the field wins.`);
    merged.bpm = bpm;
    merged.bpmWritten = music.bpm;
    replace(['bpm'], 'bpm field', 'bpm');
  }
  if (music.timeSignature !== undefined) {
    const meter = parseMeter(music.timeSignature);
    if (!meter) throw new RequestError(`Not a supported time signature: ${music.timeSignature}`);
    if (explicit.meter && meterName(explicit.meter) !== meterName(meter)) {
      warnings.push(
        `The prompt says "${said('meter')}" but the "time_signature" field asks for ${meterName(meter)}: the field wins.`,
      );
    }
    merged.meter = meter;
    replace(['meter'], 'time_signature field', 'meter');
  }
  if (music.key !== undefined) {
    const key = parseKeyName(music.key);
    if (!key) throw new RequestError(`Not a key: ${music.key}`);
    const tonicDiffers = explicit.tonic !== null && explicit.tonic !== key.tonic;
    const modeDiffers = explicit.mode !== null && explicit.mode !== key.mode;
    if (tonicDiffers || modeDiffers) {
      const words = [said('key'), said('mode')]
        .filter(Boolean)
        .map((w) => `"${w}"`)
        .join(' and ');
      warnings.push(
        `The prompt says ${words} but the "key" field asks for ${key.tonic} ${SHOWN_MODES[key.mode]}: the field wins.`,
      );
    }
    merged.tonic = key.tonic;
    merged.mode = key.mode;
    replace(['key', 'mode'], 'key field', 'key');
  }
  return merged;
}

/** Whether the engine plays an instrument of this name (a word of its instrument lexicon: "piano", "acoustic guitar"). */
export const isInstrumentName = (name: string): boolean =>
  instrumentWord(
    getLexicon(() => presetNames().map(getPreset)),
    name,
  ) !== undefined;
