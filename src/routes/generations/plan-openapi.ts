/**
 * The OpenAPI description of the plan GET returns and the batch answer (the request's `sections` and
 * `variations` are described by their schemas, plan-schema.ts and generate-request.ts).
 */
import { PLAN_KINDS } from '../../../engine/index.ts';

/** A section of the plan a generation played: the shape `sections` takes, with its start and end. */
const playedSection = {
  type: 'object',
  required: ['kind', 'bars', 'energy', 'instruments', 'start', 'end'],
  additionalProperties: false,
  properties: {
    kind: { enum: [...PLAN_KINDS] },
    bars: { type: 'integer', minimum: 1, maximum: 120, description: 'Whole bars.' },
    energy: { type: 'number', minimum: 0, maximum: 1, description: 'How full and loud (density, layers, velocity).' },
    instruments: { type: 'array', items: { type: 'string' }, description: 'The roles that play in the section.' },
    lyrics: { type: 'string', description: 'Words sung in this section, one line per line.' },
    start: { type: 'number', description: 'Seconds, on a bar line.' },
    end: { type: 'number', description: "Seconds, on a bar line (the last: the track's end)." },
  },
};

export function planResponseSchemas(ref: (name: string) => object): { plan: object; batch: object } {
  return {
    plan: {
      type: 'array',
      items: playedSection,
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
