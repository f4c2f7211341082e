/**
 * The OpenAPI description of `sections` (the composition plan), `variations`, the plan GET returns and the
 * batch answer, beside their readers (plan-sections.ts, variations.ts).
 */
import { PLAN_KINDS, PLAN_KIND_ALIASES } from '../../../engine/index.ts';
import { MAX_SECTIONS } from './plan-sections.ts';
import { MAX_VARIATIONS } from './variations.ts';

const planSection = (readOnlyFacts: boolean): object => ({
  type: 'object',
  required: readOnlyFacts ? ['kind', 'bars', 'energy', 'instruments', 'start', 'end'] : ['kind'],
  additionalProperties: false,
  properties: {
    kind: readOnlyFacts
      ? { enum: [...PLAN_KINDS] }
      : {
          enum: [...PLAN_KINDS, ...Object.keys(PLAN_KIND_ALIASES)],
          description: `Also accepted, read as the kind named: ${Object.entries(PLAN_KIND_ALIASES)
            .map(([alias, kind]) => `${alias} (${kind})`)
            .join(', ')}, so a generation's \`sections\` can be sent back as a plan.`,
        },
    bars: {
      type: 'integer',
      minimum: 1,
      maximum: 120,
      description: 'Whole bars. Give bars or seconds, not both; neither: the section shares what duration leaves.',
    },
    ...(readOnlyFacts
      ? {}
      : {
          seconds: {
            type: 'number',
            minimum: 1,
            maximum: 180,
            description:
              "Rounded to the nearest whole bar at the track's tempo (a warning in metadata.warnings says how it was played).",
          },
        }),
    energy: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: "How full and loud (density, layers, velocity). Omitted: the kind's usual energy.",
    },
    instruments: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: { type: 'string' },
      description:
        "Only these play in the section: role words (drums, bass, chords, pad, lead, arp, texture) or instruments of the track's arrangement (each plays its role). Omitted: the kind's usual roles.",
    },
    lyrics: {
      type: 'string',
      description:
        'Words sung in this section, one line per line (not with "instrumental": true or the top-level "lyrics"). When any section has lyrics, only those sections are sung; more lines than the section holds is a 400.',
    },
    start: {
      type: 'number',
      description: readOnlyFacts
        ? 'Seconds, on a bar line.'
        : 'Read-only (as GET returns it): accepted and ignored, so a returned plan can be sent back unchanged.',
    },
    end: {
      type: 'number',
      description: readOnlyFacts
        ? "Seconds, on a bar line (the last: the track's end)."
        : 'Read-only: accepted and ignored.',
    },
  },
});

export function planRequestSchemas(): { sections: object; variations: object } {
  return {
    sections: {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: MAX_SECTIONS,
      items: planSection(false),
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
    },
    variations: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_VARIATIONS,
      description: `1–${MAX_VARIATIONS} generations from this one request: the same spec, each its own seed (the first is "seed"). Each counts against the quota; if the quota cannot take all of them none is made (402). The 202 is then a Batch, not a Generation, and an Idempotency-Key replays the whole batch.`,
    },
  };
}

export function planResponseSchemas(ref: (name: string) => object): { plan: object; batch: object } {
  return {
    plan: {
      type: 'array',
      items: planSection(true),
      description:
        'When completed: the composition plan the engine played (the request\'s sections resolved to bars, or the form it chose), in the shape "sections" takes: edit it and send it back. Absent on tracks made before plans existed.',
    },
    batch: {
      type: 'object',
      required: ['batch_id', 'generations'],
      properties: { batch_id: { type: 'string' }, generations: { type: 'array', items: ref('Generation') } },
      description:
        'The answer to a request with "variations": the generations made, in order, sharing batch_id (also on each generation).',
    },
  };
}
