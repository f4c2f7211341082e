/**
 * `sections` of POST /v1/generate: a composition plan, checked here so every mistake is a 400 naming the section
 * and its field. Lengths depend on the tempo, so the plan's total is measured by the engine (planDuration).
 */
import {
  MAX_LYRICS_CHARS,
  PLAN_KINDS,
  planKindOf,
  isInstrumentName,
  planDuration,
  roleWord,
  EngineError,
  type GenerationRequest,
  type PlanSection,
} from '../../../engine/index.ts';
import { ValidationError } from '../../http/errors.ts';
import { checkCharacters } from '../../http/validate.ts';

export const MAX_SECTIONS = 30;
/** Longest plan section: a whole 180 s track at the slowest tempo is under 40 bars of 4/4, 120 allows 1/1 meters. */
const MAX_BARS = 120;
/** Fields a returned plan carries that a client may send back unchanged: facts, read and ignored. */
const REPORTED_FIELDS = ['start', 'end'];
const SECTION_FIELDS = ['kind', 'bars', 'seconds', 'energy', 'instruments', 'lyrics', ...REPORTED_FIELDS];
const MAX_NAMES = 8;

type Body = Record<string, unknown>;

export function readSections(body: Body): PlanSection[] | undefined {
  if (!Object.hasOwn(body, 'sections') || body.sections === null) return undefined;
  const value = body.sections;
  if (!Array.isArray(value)) {
    throw new ValidationError(
      'sections',
      '"sections" must be an array of sections, such as [{"kind": "intro", "bars": 4}, {"kind": "chorus", "bars": 8}].',
      'invalid_type',
    );
  }
  if (value.length === 0)
    throw new ValidationError(
      'sections',
      '"sections" must list at least one section (or leave it out to let the engine choose the form).',
      'out_of_range',
    );
  if (value.length > MAX_SECTIONS)
    throw new ValidationError(
      'sections',
      `"sections" lists ${value.length} sections; the limit is ${MAX_SECTIONS}.`,
      'out_of_range',
    );
  return value.map((item, i) => readSection(item, i));
}

function readSection(item: unknown, i: number): PlanSection {
  const at = `sections[${i}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new ValidationError(at, `"${at}" must be an object such as {"kind": "verse", "bars": 8}.`, 'invalid_type');
  }
  const section = item as Body;
  for (const name of Object.keys(section)) {
    if (!SECTION_FIELDS.includes(name)) {
      throw new ValidationError(
        `${at}.${name}`,
        `Unknown field "${name}" in ${at}. Allowed: ${SECTION_FIELDS.join(', ')}.`,
        'unknown_field',
      );
    }
  }
  const given = section.kind;
  // An alias (pre_chorus, or a kind `sections` reports) is stored in the one spelling responses use.
  const kind = typeof given === 'string' ? planKindOf(given) : undefined;
  if (kind === undefined) {
    const shown = typeof given === 'string' ? `"${given}"` : 'missing';
    throw new ValidationError(
      `${at}.kind`,
      `${at}.kind is ${shown}; use one of: ${PLAN_KINDS.join(', ')}.`,
      given === undefined ? 'missing_field' : 'invalid_value',
    );
  }
  const plan: PlanSection = { kind };
  const bars = readNumber(section, at, 'bars', 1, MAX_BARS, true);
  const seconds = readNumber(section, at, 'seconds', 1, 180, false);
  if (bars !== undefined && seconds !== undefined) {
    throw new ValidationError(
      `${at}.seconds`,
      `${at} gives both "bars" and "seconds"; give one of them.`,
      'conflicting_fields',
    );
  }
  if (bars !== undefined) plan.bars = bars;
  if (seconds !== undefined) plan.seconds = seconds;
  return { ...plan, ...readSectionChanges(section, at) };
}

/**
 * A section's energy, instruments and lyrics: in a plan's section (`at` = "sections[2]") and in a remix's body,
 * which changes them for one section (`at` = "", the fields named alone).
 */
export function readSectionChanges(section: Body, at: string): Pick<PlanSection, 'energy' | 'instruments' | 'lyrics'> {
  const changes: Pick<PlanSection, 'energy' | 'instruments' | 'lyrics'> = {};
  const energy = readNumber(section, at, 'energy', 0, 1, false);
  if (energy !== undefined) changes.energy = energy;
  const instruments = readInstruments(section, at);
  if (instruments !== undefined) changes.instruments = instruments;
  const lyrics = section.lyrics;
  if (lyrics !== undefined && lyrics !== null) {
    const field = place(at, 'lyrics');
    if (typeof lyrics !== 'string' || lyrics.trim() === '')
      throw new ValidationError(
        field,
        `${field} must be the words to sing in this section, one line per line.`,
        'invalid_type',
      );
    // The same characters as top-level "lyrics" refuses (issue 29, point 5).
    checkCharacters(field, lyrics, field);
    if ([...lyrics].length > MAX_LYRICS_CHARS)
      throw new ValidationError(
        field,
        `${field} is ${[...lyrics].length} characters long; the limit is ${MAX_LYRICS_CHARS}.`,
        'out_of_range',
      );
    changes.lyrics = lyrics.replace(/\r\n?/g, '\n');
  }
  return changes;
}

/** A field's name in messages and `param`: "sections[2].energy" in a plan, "energy" alone in a remix's body. */
const place = (at: string, name: string): string => (at === '' ? name : `${at}.${name}`);

function readNumber(
  section: Body,
  at: string,
  name: string,
  min: number,
  max: number,
  integer: boolean,
): number | undefined {
  const value = section[name];
  if (value === undefined || value === null) return undefined;
  const field = place(at, name);
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new ValidationError(field, `${field} must be a number.`, 'invalid_type');
  if (integer && !Number.isInteger(value))
    throw new ValidationError(field, `${field} must be a whole number of bars, not ${value}.`, 'invalid_type');
  if (value < min || value > max)
    throw new ValidationError(field, `${field} must be between ${min} and ${max}, not ${value}.`, 'out_of_range');
  return value;
}

function readInstruments(section: Body, at: string): string[] | undefined {
  const value = section.instruments;
  if (value === undefined || value === null) return undefined;
  const field = place(at, 'instruments');
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ValidationError(
      field,
      `${field} must be an array of instrument or role names, such as ["piano", "drums"].`,
      'invalid_type',
    );
  }
  if (value.length === 0 || value.length > MAX_NAMES)
    throw new ValidationError(field, `${field} must list 1–${MAX_NAMES} names.`, 'out_of_range');
  return (value as string[]).map((raw) => {
    const name = raw.trim().toLowerCase().replace(/\s+/g, ' ');
    if (roleWord(name) === undefined && !isInstrumentName(name)) {
      throw new ValidationError(
        field,
        `"${raw}" in ${field} is not an instrument or role the engine plays. Try "piano", "strings", "drums" or "bass".`,
        'unknown_instrument',
      );
    }
    return name;
  });
}

/**
 * The duration a plan gives, measured by the engine at the track's tempo; a 400 when it is outside the API's
 * limits. `duration` with a plan whose every section has a length is refused: two lengths that can disagree.
 */
export function planLength(
  request: GenerationRequest & { plan: NonNullable<GenerationRequest['plan']> },
  durationGiven: boolean,
  limits: { min: number; max: number },
): number {
  const { plan } = request;
  if (plan.some((s) => s.lyrics !== undefined)) {
    if (request.instrumental)
      throw new ValidationError(
        'sections',
        'Sections with "lyrics" cannot be sung with "instrumental": true. Drop one of them.',
        'conflicting_fields',
      );
    if (request.lyrics)
      throw new ValidationError(
        'lyrics',
        '"lyrics" and lyrics in "sections" cannot both be given: put every section\'s words in its section, or use "lyrics" alone.',
        'conflicting_fields',
      );
  }
  const allSized = plan.every((s) => s.bars !== undefined || s.seconds !== undefined);
  if (allSized && durationGiven) {
    throw new ValidationError(
      'duration',
      '"duration" cannot be given when every section has "bars" or "seconds": the plan sets the length. Drop "duration" (or a section\'s length to let it fill the rest).',
      'conflicting_fields',
    );
  }
  let seconds: number;
  try {
    seconds = planDuration(request);
  } catch (error) {
    if (error instanceof EngineError) throw new ValidationError('sections', error.message, 'invalid_value');
    throw error;
  }
  if (seconds < limits.min - 1e-6 || seconds > limits.max + 1e-6) {
    throw new ValidationError(
      'sections',
      `The plan lasts ${Math.round(seconds * 10) / 10} s at this tempo; a track must be ${limits.min}–${limits.max} s. Change the sections' bars or seconds (or "bpm").`,
      'out_of_range',
    );
  }
  return seconds;
}
