/**
 * The OpenAPI description of POST /v1/generation/{id}/extend and …/remix (their bodies and the `source` a made
 * generation carries), beside their readers (derive-generation.ts).
 */
import { LIMITS } from './generate-request.ts';
import { MAX_SECTIONS } from './plan-sections.ts';

export function deriveSchemas(sectionsSchema: object): Record<string, object> {
  return {
    ExtendRequest: {
      type: 'object',
      additionalProperties: false,
      description: 'Give "seconds" or "sections", not both.',
      properties: {
        seconds: {
          type: 'number',
          minimum: 1,
          maximum: LIMITS.maxDuration - LIMITS.minDuration,
          description:
            "Seconds of new material (rounded to whole bars) played after the source's bars and before a new ending like the source's; the new track must be 30–180 s.",
        },
        sections: {
          ...sectionsSchema,
          description:
            'A plan of what follows the source\'s bars, in place of its ending (the same schema as POST /v1/generate\'s "sections").',
        },
      },
      examples: [
        { seconds: 20 },
        {
          sections: [
            { kind: 'bridge', bars: 8 },
            { kind: 'chorus', bars: 8, energy: 1 },
            { kind: 'outro', bars: 4 },
          ],
        },
      ],
    },
    RemixRequest: {
      type: 'object',
      required: ['section'],
      additionalProperties: false,
      description:
        'What to change in the section: energy, instruments, lyrics or seed. Only "section" composes it anew from a new random seed, which the new generation reports as its `seed`.',
      properties: {
        section: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_SECTIONS - 1,
          description: 'The index of the section to redo in the source\'s "plan".',
        },
        energy: { type: 'number', minimum: 0, maximum: 1, description: "The section's new energy." },
        instruments: {
          type: 'array',
          minItems: 1,
          maxItems: 8,
          items: { type: 'string' },
          description: 'Only these play in the section (as in a plan section).',
        },
        lyrics: {
          type: 'string',
          description:
            "New words for the section (the source must be sung): the source's other lines stay in their sections.",
        },
        seed: {
          type: 'integer',
          minimum: 0,
          maximum: LIMITS.maxSeed,
          description:
            "Compose the section again from this seed (default: the source's seed when something else changes, so only that changes; a new random seed when nothing else does).",
        },
      },
      examples: [{ section: 2, energy: 1 }, { section: 1, seed: 7 }, { section: 1 }],
    },
    GenerationSource: {
      type: 'object',
      required: ['id', 'operation'],
      description: 'Only on a generation made by …/extend or …/remix: the generation it was made from.',
      properties: {
        id: { type: 'string' },
        operation: { enum: ['extend', 'remix'] },
        section: { type: 'integer', description: "remix only: the source's section redone." },
      },
    },
  };
}

export const EXTEND_DESCRIPTION =
  'A new generation that continues a completed one: the same prompt, seed, tempo, key and meter, its bars unchanged sample for sample up to the bar line where its ending starts, ' +
  'then new material and a new ending. Counted against the quota like any generation; the answer, Idempotency-Key, polling and webhooks work as for POST /v1/generate. ' +
  "The WAV before that bar line is byte-identical to the source's; the other formats are made from that WAV. Stems are not made. " +
  '409 when the source is not completed, is a loop, or was made before plans were reported.';

export const REMIX_DESCRIPTION =
  'A new generation identical to a completed one outside one section (sample for sample: the 50 ms crossfades lie inside the section) and new inside it, ' +
  'with the energy, instruments, lyrics or seed asked for. Counted against the quota like any generation. Stems are not made. 409 as for extend.';
