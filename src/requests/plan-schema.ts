/**
 * `sections` of POST /v1/generate and …/extend (a composition plan), and the section fields a remix changes, as
 * zod schemas: every mistake is a 400 naming the section and its field ("sections[2].energy"; "energy" alone in a
 * remix's body). The plan's length depends on the tempo, so it is measured by the engine (plan-sections.ts).
 */
import { z } from 'zod';
import {
  MAX_LYRICS_CHARS,
  PLAN_KINDS,
  PLAN_KIND_ALIASES,
  isInstrumentName,
  planKindOf,
  roleWord,
  type PlanSection,
} from '../../engine/index.ts';
import { checkCharacters, countChars } from '../http/fields.ts';
import { fieldName, refuse } from '../http/schema.ts';

export const MAX_SECTIONS = 30;
/** Longest plan section: a whole 180 s track at the slowest tempo is under 40 bars of 4/4, 120 allows 1/1 meters. */
const MAX_BARS = 120;
const MAX_NAMES = 8;

/** A number in a section, named bare ("sections[0].bars must be a number."). */
function sectionNumber(min: number, max: number, integer: boolean) {
  const name = (issue: z.core.$ZodRawIssue) => fieldName(issue.path ?? []);
  const range = {
    error: (issue: z.core.$ZodRawIssue) =>
      `${name(issue)} must be between ${min} and ${max}, not ${String(issue.input)}.`,
  };
  const base = z.number({
    error: (issue) => {
      if (issue.code !== 'invalid_type') return undefined;
      if (issue.expected === 'int' && typeof issue.input === 'number' && Number.isFinite(issue.input))
        return `${name(issue)} must be a whole number of bars, not ${issue.input}.`;
      return `${name(issue)} must be a number.`;
    },
  });
  return (integer ? base.int() : base).min(min, range).max(max, range);
}

const instruments = z
  .array(z.string(), {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? `${fieldName(issue.path ?? [])} must be an array of instrument or role names, such as ["piano", "drums"].`
        : undefined,
  })
  .transform((names, ctx) => {
    if (names.length === 0 || names.length > MAX_NAMES) {
      refuse(ctx, 'out_of_range', (f) => `${f} must list 1–${MAX_NAMES} names.`);
      return z.NEVER;
    }
    const normalised = names.map((raw) => raw.trim().toLowerCase().replace(/\s+/g, ' '));
    const unknown = names.find((_, i) => {
      const name = normalised[i] ?? '';
      return roleWord(name) === undefined && !isInstrumentName(name);
    });
    if (unknown !== undefined) {
      refuse(
        ctx,
        'unknown_instrument',
        (f) =>
          `"${unknown}" in ${f} is not an instrument or role the engine plays. Try "piano", "strings", "drums" or "bass".`,
      );
      return z.NEVER;
    }
    return normalised;
  })
  .meta({
    minItems: 1,
    maxItems: MAX_NAMES,
    description:
      "Only these play in the section: role words (drums, bass, chords, pad, lead, arp, texture) or instruments of the track's arrangement (each plays its role). Omitted: the kind's usual roles.",
  });

const lyrics = z
  .string({
    error: (issue) =>
      issue.code === 'invalid_type'
        ? `${fieldName(issue.path ?? [])} must be the words to sing in this section, one line per line.`
        : undefined,
  })
  .transform((words, ctx) => {
    if (words.trim() === '') {
      refuse(ctx, 'invalid_type', (f) => `${f} must be the words to sing in this section, one line per line.`);
      return z.NEVER;
    }
    // The same characters as top-level "lyrics" refuses (issue 29, point 5).
    checkCharacters(words, ctx, false);
    const chars = countChars(words);
    if (chars > MAX_LYRICS_CHARS)
      refuse(ctx, 'out_of_range', (f) => `${f} is ${chars} characters long; the limit is ${MAX_LYRICS_CHARS}.`);
    return words.replace(/\r\n?/g, '\n');
  })
  .meta({
    maxLength: MAX_LYRICS_CHARS,
    description:
      'Words sung in this section, one line per line (not with "instrumental": true or the top-level "lyrics"). When any section has lyrics, only those sections are sung; more lines than the section holds is a 400.',
  });

/** What a remix may change in a section, and a plan's section may set: its energy, instruments and lyrics. */
export const sectionChanges = {
  energy: sectionNumber(0, 1, false)
    .nullish()
    .meta({ description: "How full and loud (density, layers, velocity). Omitted: the kind's usual energy." }),
  instruments: instruments.nullish(),
  lyrics: lyrics.nullish(),
};

export type SectionChanges = Pick<PlanSection, 'energy' | 'instruments' | 'lyrics'>;

/** The changes given, without the absent ones. */
export function changesOf(fields: {
  energy?: number | null;
  instruments?: string[] | null;
  lyrics?: string | null;
}): SectionChanges {
  return {
    ...(fields.energy != null ? { energy: fields.energy } : {}),
    ...(fields.instruments != null ? { instruments: fields.instruments } : {}),
    ...(fields.lyrics != null ? { lyrics: fields.lyrics } : {}),
  };
}

const kindList = PLAN_KINDS.join(', ');

const kind = z
  .string({
    error: (issue) =>
      issue.code === 'invalid_type' ? `${fieldName(issue.path ?? [])} is missing; use one of: ${kindList}.` : undefined,
  })
  .transform((given, ctx) => {
    // An alias (pre_chorus, or a kind `sections` reports) is stored in the one spelling responses use.
    const planKind = planKindOf(given);
    if (planKind === undefined) {
      refuse(ctx, 'invalid_value', (f) => `${f} is "${given}"; use one of: ${kindList}.`);
      return z.NEVER;
    }
    return planKind;
  })
  .meta({
    enum: [...PLAN_KINDS, ...Object.keys(PLAN_KIND_ALIASES)],
    description: `Also accepted, read as the kind named: ${Object.entries(PLAN_KIND_ALIASES)
      .map(([alias, planKind]) => `${alias} (${planKind})`)
      .join(', ')}, so a generation's \`sections\` can be sent back as a plan.`,
  });

const sectionShape = {
  kind,
  bars: sectionNumber(1, MAX_BARS, true).nullish().meta({
    description: 'Whole bars. Give bars or seconds, not both; neither: the section shares what duration leaves.',
  }),
  seconds: sectionNumber(1, 180, false).nullish().meta({
    description:
      "Rounded to the nearest whole bar at the track's tempo (a warning in metadata.warnings says how it was played).",
  }),
  ...sectionChanges,
  // Facts a returned plan carries, so it can be sent back unchanged: read and ignored.
  start: z
    .unknown()
    .optional()
    .meta({ type: 'number', description: 'Read-only (as GET returns it): accepted and ignored.' }),
  end: z.unknown().optional().meta({ type: 'number', description: 'Read-only: accepted and ignored.' }),
};
const sectionFields = Object.keys(sectionShape).join(', ');

/** One section of a plan, as a client writes it. */
export const planSection = z
  .strictObject(sectionShape, {
    error: (issue) => {
      const at = fieldName(issue.path ?? []);
      if (issue.code === 'unrecognized_keys')
        return `Unknown field "${issue.keys[0]}" in ${at}. Allowed: ${sectionFields}.`;
      if (issue.code === 'invalid_type') return `"${at}" must be an object such as {"kind": "verse", "bars": 8}.`;
      return undefined;
    },
  })
  .transform((given, ctx): PlanSection => {
    if (given.bars != null && given.seconds != null) {
      ctx.addIssue({
        code: 'custom',
        path: ['seconds'],
        params: {
          code: 'conflicting_fields',
          say: (f: string) => `${f.replace(/\.seconds$/, '')} gives both "bars" and "seconds"; give one of them.`,
        },
      });
      return z.NEVER;
    }
    return {
      kind: given.kind,
      ...(given.bars != null ? { bars: given.bars } : {}),
      ...(given.seconds != null ? { seconds: given.seconds } : {}),
      ...changesOf(given),
    };
  });

export const sections = z
  .array(planSection, {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? '"sections" must be an array of sections, such as [{"kind": "intro", "bars": 4}, {"kind": "chorus", "bars": 8}].'
        : undefined,
  })
  .min(1, {
    error: '"sections" must list at least one section (or leave it out to let the engine choose the form).',
  })
  .max(MAX_SECTIONS, {
    error: (issue) =>
      `"sections" lists ${Array.isArray(issue.input) ? issue.input.length : '?'} sections; the limit is ${MAX_SECTIONS}.`,
  })
  .meta({
    examples: [
      [
        { kind: 'intro', bars: 4 },
        { kind: 'verse', bars: 8 },
        { kind: 'chorus', bars: 8, energy: 1 },
        { kind: 'outro', seconds: 10 },
      ],
    ],
    description:
      'A composition plan, played exactly: these sections in this order, each its bars, every boundary on a bar line at the times GET reports. The plan\'s length (at the tempo: set "bpm" to know it in advance) must be 30–180 s and becomes the duration; ' +
      '"duration" together with a plan where every section has a length is a 400 conflicting_fields (two lengths that could disagree). Not with "loop".',
  });
