/**
 * Style presets: genre knowledge as data. Each `presets/<name>.json` is one `Preset` (engine/types.ts),
 * validated here on first load so a bad file fails loudly with the file and the field at fault,
 * instead of producing odd music later. Loading is synchronous and cached: presets are read-only data.
 *
 * Chord symbol grammar used in `progressions` (the compose stage parses it):
 *
 *   symbol     = [accidental] numeral [suffix]
 *   accidental = "b" | "#"                      (lowers/raises the root a semitone from the major-scale degree)
 *   numeral    = I | II | III | IV | V | VI | VII  (upper case = major triad)
 *              | i | ii | iii | iv | v | vi | vii  (lower case = minor triad)
 *   suffix     = "7" | "maj7" | "9" | "add9" | "sus2" | "sus4" | "dim" | "aug" | "m7b5"
 *
 * Degrees are counted from the tonic of the MAJOR scale in both lists, so in a minor key the
 * natural-minor chords are written "i", "iv", "v", "bIII", "bVI", "bVII". "7" on an upper-case numeral
 * is a dominant 7th, on a lower-case one a minor 7th; "9" extends that 7th chord; "dim"/"m7b5" are
 * written on lower-case numerals ("viidim", "iim7b5"). The regex is CHORD_SYMBOL below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defined } from './checked.ts';
import { InvalidPresetError, UnknownStyleError } from './errors.ts';
import {
  BASS_STYLES,
  CHORD_STYLES,
  DRUMS,
  FORM_KINDS,
  MODES,
  PATCHES,
  ROLES,
  type Preset,
  type StyleInfo,
} from './types.ts';

export const CHORD_SYMBOL =
  /^(b|#)?(VII|VI|V|IV|III|II|I|vii|vi|v|iv|iii|ii|i)(7|maj7|9|add9|sus2|sus4|dim|aug|m7b5)?$/;

const DEFAULT_FOLDER = new URL('../presets/', import.meta.url);

type Problem = (message: string) => never;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectObject(value: unknown, where: string, fail: Problem): Record<string, unknown> {
  if (!isObject(value)) fail(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function expectKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string, fail: Problem): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(`${where} has unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

function expectNumber(value: unknown, where: string, min: number, max: number, fail: Problem): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${where} must be a number`);
  const n = value as number;
  if (n < min || n > max) fail(`${where} must be within ${min}–${max}, got ${n}`);
  return n;
}

function expectString(value: unknown, where: string, fail: Problem): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${where} must be a non-empty string`);
  return value as string;
}

function expectOneOf<T extends string>(value: unknown, allowed: readonly T[], where: string, fail: Problem): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(`${where} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function expectArray(value: unknown, where: string, fail: Problem, minLength = 1): unknown[] {
  if (!Array.isArray(value) || value.length < minLength)
    fail(`${where} must be an array of at least ${minLength} item(s)`);
  return value as unknown[];
}

function validateGrid(grid: unknown, steps: number, where: string, fail: Problem): void {
  const obj = expectObject(grid, where, fail);
  for (const [drum, pattern] of Object.entries(obj)) {
    expectOneOf(drum, DRUMS, `${where} drum name`, fail);
    if (typeof pattern !== 'string') fail(`${where}.${drum} must be a string`);
    const p = pattern as string;
    if (p.length !== steps) fail(`${where}.${drum} must have exactly ${steps} steps, has ${p.length}`);
    if (!/^[.1-9]+$/.test(p)) fail(`${where}.${drum} may only contain '.' and '1'–'9', got "${p}"`);
  }
}

/** Checks one parsed preset; throws InvalidPresetError naming the first problem found. */
export function validatePreset(raw: unknown, file: string, expectedName?: string): Preset {
  const fail: Problem = (message) => {
    throw new InvalidPresetError(file, message);
  };
  const p = expectObject(raw, 'the preset', fail);
  expectKeys(
    p,
    [
      'name',
      'description',
      'aliases',
      'bpm',
      'meter',
      'swing',
      'modes',
      'valence',
      'arousal',
      'form',
      'progressions',
      'harmonicRhythm',
      'drums',
      'bass',
      'chords',
      'melody',
      'instruments',
      'effects',
      'vocal',
      'levels',
      'playing',
      'tone',
      'answer',
      'delivery',
      'ending',
    ],
    'the preset',
    fail,
  );
  const name = expectString(p.name, 'name', fail);
  if (!/^[a-z][a-z0-9-]*$/.test(name)) fail(`name must be lower-case letters, digits and '-', got "${name}"`);
  if (expectedName !== undefined && name !== expectedName)
    fail(`name "${name}" must match the file name "${expectedName}"`);
  expectString(p.description, 'description', fail);
  for (const [i, alias] of expectArray(p.aliases, 'aliases', fail).entries())
    expectString(alias, `aliases[${i}]`, fail);

  const meter = expectObject(p.meter, 'meter', fail);
  expectKeys(meter, ['beatsPerBar', 'beatUnit'], 'meter', fail);
  expectNumber(meter.beatsPerBar, 'meter.beatsPerBar', 2, 12, fail);
  if (![4, 8].includes(meter.beatUnit as number)) fail('meter.beatUnit must be 4 or 8');

  // The tempo counts the meter's beat unit, so a 6/8 jig at 110 dotted quarters is 330 (eighths): the limits
  // are 40–220 quarter notes a minute either way.
  const perQuarter = (meter.beatUnit as number) / 4;
  const bpm = expectObject(p.bpm, 'bpm', fail);
  expectKeys(bpm, ['min', 'max', 'default'], 'bpm', fail);
  const min = expectNumber(bpm.min, 'bpm.min', 40 * perQuarter, 220 * perQuarter, fail);
  const max = expectNumber(bpm.max, 'bpm.max', 40 * perQuarter, 220 * perQuarter, fail);
  const def = expectNumber(bpm.default, 'bpm.default', 40 * perQuarter, 220 * perQuarter, fail);
  if (!(min <= def && def <= max)) fail(`bpm must satisfy min <= default <= max, got ${min}/${def}/${max}`);

  expectNumber(p.swing, 'swing', 0, 1, fail);
  for (const [i, mode] of expectArray(p.modes, 'modes', fail).entries()) expectOneOf(mode, MODES, `modes[${i}]`, fail);
  expectNumber(p.valence, 'valence', -1, 1, fail);
  expectNumber(p.arousal, 'arousal', -1, 1, fail);
  expectOneOf(p.form, FORM_KINDS, 'form', fail);

  const progressions = expectObject(p.progressions, 'progressions', fail);
  expectKeys(progressions, ['major', 'minor'], 'progressions', fail);
  for (const kind of ['major', 'minor'] as const) {
    expectArray(progressions[kind], `progressions.${kind}`, fail).forEach((prog, i) => {
      expectArray(prog, `progressions.${kind}[${i}]`, fail).forEach((symbol, j) => {
        if (typeof symbol !== 'string' || !CHORD_SYMBOL.test(symbol)) {
          fail(`progressions.${kind}[${i}][${j}] is not a chord symbol: ${JSON.stringify(symbol)}`);
        }
      });
    });
  }
  if (![0.5, 1, 2].includes(p.harmonicRhythm as number)) fail('harmonicRhythm must be 0.5, 1 or 2');

  if (p.drums !== null) {
    const drums = expectObject(p.drums, 'drums', fail);
    expectKeys(drums, ['stepsPerBar', 'main', 'fill', 'half', 'rolls', 'pickups'], 'drums', fail);
    if (drums.rolls !== undefined) expectNumber(drums.rolls, 'drums.rolls', 0, 1, fail);
    if (drums.pickups !== undefined) expectNumber(drums.pickups, 'drums.pickups', 0, 1, fail);
    const steps = expectNumber(drums.stepsPerBar, 'drums.stepsPerBar', 1, 64, fail);
    if (!Number.isInteger(steps)) fail('drums.stepsPerBar must be an integer');
    for (const variant of ['main', 'fill', 'half'] as const)
      validateGrid(drums[variant], steps, `drums.${variant}`, fail);
    if (Object.keys(drums.main as object).length === 0) fail('drums.main must have at least one drum');
  }

  expectOneOf(p.bass, BASS_STYLES, 'bass', fail);
  expectOneOf(p.chords, CHORD_STYLES, 'chords', fail);

  const melody = expectObject(p.melody, 'melody', fail);
  expectKeys(melody, ['low', 'high', 'density', 'blue'], 'melody', fail);
  if (melody.blue !== undefined && typeof melody.blue !== 'boolean') fail('melody.blue must be true or false');
  const low = expectNumber(melody.low, 'melody.low', 21, 108, fail);
  const high = expectNumber(melody.high, 'melody.high', 21, 108, fail);
  if (high - low < 12) fail(`melody range must span at least an octave, got ${low}–${high}`);
  expectNumber(melody.density, 'melody.density', 0, 1, fail);

  const instruments = expectObject(p.instruments, 'instruments', fail);
  if (Object.keys(instruments).length === 0) fail('instruments must name at least one role');
  for (const [role, patch] of Object.entries(instruments)) {
    expectOneOf(role, ROLES, 'instruments role', fail);
    expectOneOf(patch, PATCHES, `instruments.${role}`, fail);
  }
  if ((p.drums === null) !== (instruments.drums === undefined)) {
    fail('instruments.drums must be present exactly when drums grooves are given');
  }

  const effects = expectObject(p.effects, 'effects', fail);
  expectKeys(effects, ['reverb', 'reverbDecay', 'delay', 'lofi', 'brightness'], 'effects', fail);
  expectNumber(effects.reverb, 'effects.reverb', 0, 1, fail);
  expectNumber(effects.reverbDecay, 'effects.reverbDecay', 0.1, 20, fail);
  expectNumber(effects.delay, 'effects.delay', 0, 1, fail);
  if (typeof effects.lofi !== 'boolean') fail('effects.lofi must be true or false');
  expectNumber(effects.brightness, 'effects.brightness', 200, 20000, fail);
  if (typeof p.vocal !== 'boolean') fail('vocal must be true or false');
  if (p.answer !== undefined && typeof p.answer !== 'boolean') fail('answer must be true or false');
  if (p.delivery !== undefined && p.delivery !== 'rapped') fail('delivery must be "rapped"');
  if (p.ending !== undefined && p.ending !== 'stop') fail('ending must be "stop"');
  if (p.levels !== undefined) {
    const levels = expectObject(p.levels, 'levels', fail);
    for (const [role, db] of Object.entries(levels)) {
      expectOneOf(role, ROLES, 'levels role', fail);
      expectNumber(db, `levels.${role}`, -12, 12, fail);
    }
  }
  if (p.playing !== undefined) {
    const playing = expectObject(p.playing, 'playing', fail);
    for (const [role, style] of Object.entries(playing)) {
      expectOneOf(role, ['pad', 'arp'] as const, 'playing role', fail);
      expectOneOf(style, CHORD_STYLES, `playing.${role}`, fail);
    }
  }
  if (p.tone !== undefined) {
    const tone = expectObject(p.tone, 'tone', fail);
    for (const [role, value] of Object.entries(tone)) {
      expectOneOf(role, ROLES, 'tone role', fail);
      const treatment = expectObject(value, `tone.${role}`, fail);
      expectKeys(treatment, ['lowpass', 'highpass', 'bits', 'rate', 'pads', 'chop'], `tone.${role}`, fail);
      if (treatment.lowpass !== undefined) expectNumber(treatment.lowpass, `tone.${role}.lowpass`, 200, 20000, fail);
      if (treatment.highpass !== undefined) expectNumber(treatment.highpass, `tone.${role}.highpass`, 20, 2000, fail);
      if (treatment.pads !== undefined) {
        const pads = expectObject(treatment.pads, `tone.${role}.pads`, fail);
        for (const [drum, db] of Object.entries(pads)) {
          expectOneOf(drum, DRUMS, `tone.${role}.pads drum`, fail);
          expectNumber(db, `tone.${role}.pads.${drum}`, -24, 12, fail);
        }
      }
      if (treatment.chop !== undefined) {
        const chop = expectObject(treatment.chop, `tone.${role}.chop`, fail);
        for (const [drum, seconds] of Object.entries(chop)) {
          expectOneOf(drum, DRUMS, `tone.${role}.chop drum`, fail);
          expectNumber(seconds, `tone.${role}.chop.${drum}`, 0.03, 5, fail);
        }
      }
      if (treatment.bits !== undefined) expectNumber(treatment.bits, `tone.${role}.bits`, 4, 16, fail);
      if (treatment.rate !== undefined) expectNumber(treatment.rate, `tone.${role}.rate`, 4000, 48000, fail);
    }
  }
  return raw as Preset;
}

/** Presets are shared by every request: freezing them turns an accidental mutation into a loud error. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Reads and validates every `*.json` in a folder, keyed by preset name. */
export function loadPresetFolder(folder: URL | string = DEFAULT_FOLDER): Map<string, Preset> {
  const dir = typeof folder === 'string' ? folder : fileURLToPath(folder);
  const presets = new Map<string, Preset>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    } catch (error) {
      throw new InvalidPresetError(file, `not valid JSON (${(error as Error).message})`);
    }
    const preset = validatePreset(parsed, file, file.slice(0, -'.json'.length));
    presets.set(preset.name, deepFreeze(preset));
  }
  if (presets.size === 0) throw new InvalidPresetError(dir, 'the folder holds no presets');
  return presets;
}

let cache: Map<string, Preset> | null = null;

function presets(): Map<string, Preset> {
  cache ??= loadPresetFolder();
  return cache;
}

/** Preset names, sorted. */
export function presetNames(): string[] {
  return [...presets().keys()].sort();
}

/** Name and one-line description of every style, sorted by name. */
export function listStyles(): StyleInfo[] {
  return presetNames().map((name) => ({
    name,
    description: defined(presets().get(name), `the style ${name}`).description,
  }));
}

/** The preset called `name`; throws UnknownStyleError listing the known names. */
export function getPreset(name: string): Preset {
  const preset = presets().get(name);
  if (!preset) throw new UnknownStyleError(name, presetNames());
  return preset;
}
