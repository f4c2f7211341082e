/**
 * The musical fields of POST /v1/generate (`bpm`, `key`, `time_signature`, `instruments`, `exclude`, `energy`),
 * checked here so a value the engine cannot honour is a 400 naming the field, never a failed render.
 */
import { z } from 'zod';
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
} from '../../engine/index.ts';
import { ValidationError } from '../domain/errors.ts';
import { number, text } from '../http/fields.ts';
import { fieldName, refuse } from '../http/schema.ts';

/** Enough for a full band; more names than roles could never all play. */
const MAX_NAMES = 8;
const MAX_NAME_CHARS = 40;

const WINS = 'Wins over the prompt; a prompt that says otherwise is reported in metadata.warnings.';

/** A list of distinct names, lower-cased, each one the engine knows. */
function names(known: (value: string) => boolean, roles: string, example: string[]) {
  return (
    z
      .array(z.string(), {
        error: (issue) =>
          issue.code === 'invalid_type'
            ? `"${fieldName(issue.path ?? [])}" must be an array of strings, such as ["piano", "cello"].`
            : undefined,
      })
      // Before the transform: zod leaves a pipe's examples out of the input's JSON Schema.
      .meta({ maxItems: MAX_NAMES, items: { type: 'string', maxLength: MAX_NAME_CHARS }, examples: [example] })
      .transform((given, ctx) => {
        if (given.length > MAX_NAMES) {
          refuse(ctx, 'out_of_range', (f) => `"${f}" lists ${given.length} names; the limit is ${MAX_NAMES}.`);
          return z.NEVER;
        }
        const list: string[] = [];
        for (const raw of given) {
          const name = raw.trim().toLowerCase().replace(/\s+/g, ' ');
          if (name === '' || name.length > MAX_NAME_CHARS) {
            refuse(ctx, 'out_of_range', (f) => `Each name in "${f}" must be 1–${MAX_NAME_CHARS} characters long.`);
            return z.NEVER;
          }
          if (!known(name)) {
            refuse(
              ctx,
              'unknown_instrument',
              (f) =>
                `"${raw}" in "${f}" is not an instrument the engine plays${roles}. Try a common name such as "piano", "acoustic guitar" or "strings".`,
            );
            return z.NEVER;
          }
          if (!list.includes(name)) list.push(name);
        }
        return list;
      })
  );
}

export const musicalShape = {
  bpm: number({ min: MIN_BPM, max: MAX_BPM, unit: 'beats per minute' })
    .nullish()
    .meta({
      description: `Beats a minute of the pulse a listener taps: quarter notes in 3/4, 4/4, 5/4 and 7/8, dotted quarters in 6/8 and 12/8 (metadata.bpm counts the same way). ${WINS}`,
    }),
  key: text({ maxChars: 40 })
    .meta({ examples: ['F# minor', 'Bb major', 'D dorian'] })
    .transform((given, ctx) => {
      if (parseKeyName(given)) return given.replace(/\s+/g, ' ');
      refuse(
        ctx,
        'invalid_value',
        (f) =>
          `"${f}" must be a tonic and a mode, such as "F# minor", "Bb major" or "D dorian" (modes: ${KEY_MODES.join(', ')}), not "${given}".`,
      );
      return z.NEVER;
    })
    .nullish()
    .meta({
      description: `A tonic (A–G with # or b) and a mode: ${KEY_MODES.join(', ')}. ${WINS}`,
    }),
  time_signature: text({ maxChars: 10 })
    .transform((given, ctx) => {
      const meter = parseMeter(given);
      if (meter) return `${meter.beatsPerBar}/${meter.beatUnit}`;
      refuse(
        ctx,
        'invalid_value',
        (f) => `"${f}" ${given} is not one the engine has grooves for. Use one of: ${METERS.join(', ')}.`,
      );
      return z.NEVER;
    })
    .nullish()
    .meta({
      enum: [...METERS, null],
      description: `Every style plays each of these with grooves of its own (drums, bass, comping, strums): 5/4 as 3+2, 7/8 as 2+2+3, 6/8 and 12/8 on a dotted-quarter pulse. Others are a 400. ${WINS}`,
    }),
  instruments: names((name) => isInstrumentName(name), '', ['piano', 'cello'])
    .nullish()
    .meta({
      description: `Instruments to include, by common name ("piano", "acoustic guitar", "strings"); one the engine does not play is a 400 unknown_instrument, one the arrangement cannot fit a warning. ${WINS}`,
    }),
  exclude: names(
    (name) => roleWord(name) !== undefined || isInstrumentName(name),
    ` or a role (${EXCLUDABLE_ROLES.join(', ')})`,
    ['drums', 'vocals'],
  )
    .nullish()
    .meta({
      description: `Instruments or roles to leave out (roles: ${EXCLUDABLE_ROLES.join(', ')}). Excluding the vocals together with lyrics is a 400 conflicting_fields. ${WINS}`,
    }),
  energy: number({ min: 0, max: 1 })
    .nullish()
    .meta({
      description: `0 calm … 1 intense: sets the arousal mood words would set (tempo when no bpm is given, density, dynamics). ${WINS}`,
    }),
};

type MusicalInput = { [K in keyof typeof musicalShape]?: z.output<(typeof musicalShape)[K]> };

/** The fields given, or undefined when none is: a request without them stays the request it always was. */
export function musicalFieldsOf(fields: MusicalInput): MusicalFields | undefined {
  const { instruments, exclude } = fields;
  const both = instruments?.find((name) => exclude?.includes(name));
  if (both !== undefined) {
    throw new ValidationError(
      'exclude',
      `"${both}" is both in "instruments" and in "exclude". Drop it from one of them.`,
      'conflicting_fields',
    );
  }
  const music: MusicalFields = {
    ...(fields.bpm != null ? { bpm: fields.bpm } : {}),
    ...(fields.key != null ? { key: fields.key } : {}),
    ...(fields.time_signature != null ? { timeSignature: fields.time_signature } : {}),
    ...(instruments != null ? { instruments } : {}),
    ...(exclude != null ? { exclude } : {}),
    ...(fields.energy != null ? { energy: fields.energy } : {}),
  };
  return Object.keys(music).length > 0 ? music : undefined;
}
