/**
 * The musical fields of POST /v1/generate (`bpm`, `key`, `time_signature`, `instruments`, `exclude`,
 * `energy`), checked here so a value the engine cannot honour is a 400 naming the field, never a failed render.
 */
import {
  EXCLUDABLE_ROLES,
  KEY_MODES,
  MAX_BPM,
  METERS,
  MIN_BPM,
  isInstrumentName,
  parseKeyName,
  parseMeter,
  roleWord,
  type MusicalFields,
} from '../../../engine/index.ts';
import { ValidationError } from '../../http/errors.ts';
import { readNumber, readText } from '../../http/validate.ts';

export const MUSICAL_FIELDS = ['bpm', 'key', 'time_signature', 'instruments', 'exclude', 'energy'] as const;

/** Enough for a full band; more names than roles could never all play. */
const MAX_NAMES = 8;
const MAX_NAME_CHARS = 40;

type Body = Record<string, unknown>;

/** The fields given, or undefined when none is: a request without them stays the request it always was. */
export function readMusicalFields(body: Body): MusicalFields | undefined {
  const music: MusicalFields = {};
  const bpm = readNumber(body, 'bpm', { min: MIN_BPM, max: MAX_BPM, unit: 'beats per minute' });
  if (bpm !== undefined) music.bpm = bpm;
  const key = readKey(body);
  if (key !== undefined) music.key = key;
  const timeSignature = readTimeSignature(body);
  if (timeSignature !== undefined) music.timeSignature = timeSignature;
  const instruments = readNames(body, 'instruments', (name) => isInstrumentName(name));
  if (instruments !== undefined) music.instruments = instruments;
  const exclude = readNames(body, 'exclude', (name) => roleWord(name) !== undefined || isInstrumentName(name));
  if (exclude !== undefined) music.exclude = exclude;
  const energy = readNumber(body, 'energy', { min: 0, max: 1 });
  if (energy !== undefined) music.energy = energy;

  const both = instruments?.find((name) => exclude?.includes(name));
  if (both !== undefined) {
    throw new ValidationError(
      'exclude',
      `"${both}" is both in "instruments" and in "exclude". Drop it from one of them.`,
      'conflicting_fields',
    );
  }
  return Object.keys(music).length > 0 ? music : undefined;
}

function readKey(body: Body): string | undefined {
  const text = readText(body, 'key', { maxChars: 40 });
  if (text === undefined) return undefined;
  const key = parseKeyName(text);
  if (!key) {
    throw new ValidationError(
      'key',
      `"key" must be a tonic and a mode, such as "F# minor", "Bb major" or "D dorian" (modes: ${KEY_MODES.join(', ')}), not "${text}".`,
      'invalid_value',
    );
  }
  return text.replace(/\s+/g, ' ');
}

function readTimeSignature(body: Body): string | undefined {
  // A name, not a literal, in the error: test/readme.test.ts reads snake_case literals there as error codes.
  const field = 'time_signature';
  const text = readText(body, field, { maxChars: 10 });
  if (text === undefined) return undefined;
  const meter = parseMeter(text);
  if (!meter) {
    throw new ValidationError(
      field,
      `"time_signature" ${text} is not one the engine has grooves for. Use one of: ${METERS.join(', ')}.`,
      'invalid_value',
    );
  }
  return `${meter.beatsPerBar}/${meter.beatUnit}`;
}

/** A list of distinct names, lower-cased, each one the engine knows. */
function readNames(body: Body, name: string, known: (value: string) => boolean): string[] | undefined {
  if (!Object.hasOwn(body, name) || body[name] === null) return undefined;
  const value = body[name];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ValidationError(
      name,
      `"${name}" must be an array of strings, such as ["piano", "cello"].`,
      'invalid_type',
    );
  }
  if (value.length > MAX_NAMES)
    throw new ValidationError(
      name,
      `"${name}" lists ${value.length} names; the limit is ${MAX_NAMES}.`,
      'out_of_range',
    );
  const names: string[] = [];
  for (const raw of value as string[]) {
    const text = raw.trim().toLowerCase().replace(/\s+/g, ' ');
    if (text === '' || text.length > MAX_NAME_CHARS) {
      throw new ValidationError(
        name,
        `Each name in "${name}" must be 1–${MAX_NAME_CHARS} characters long.`,
        'out_of_range',
      );
    }
    if (!known(text)) {
      const roles = name === 'exclude' ? ` or a role (${EXCLUDABLE_ROLES.join(', ')})` : '';
      throw new ValidationError(
        name,
        `"${raw}" in "${name}" is not an instrument the engine plays${roles}. Try a common name such as "piano", "acoustic guitar" or "strings".`,
        'unknown_instrument',
      );
    }
    if (!names.includes(text)) names.push(text);
  }
  return names;
}
