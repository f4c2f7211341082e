/**
 * Making a generation from another, whoever asks: POST /v1/generation/{id}/extend and …/remix, and the
 * dashboard's buttons, come through here, so all get the same validation; the generations module does the rest.
 */
import { randomInt } from 'node:crypto';
import type { Derivation } from '../domain/generations/derive.ts';
import type { CreateOptions } from '../domain/generations/generations.ts';
import { ValidationError } from '../domain/errors.ts';
import type { Services } from '../services.ts';
import { number } from '../http/fields.ts';
import { parseWith, strictBody } from '../http/schema.ts';
import type { Account, Generation } from '../domain/model.ts';
import { findOwnGeneration } from '../routes/generations/find-generation.ts';
import { LIMITS } from './generate-request.ts';
import { MAX_SECTIONS, changesOf, sectionChanges, sections } from './plan-schema.ts';

export type Operation = Derivation['operation'];

export interface DeriveInput extends CreateOptions {
  /** The request body, still unvalidated. */
  body: Record<string, unknown>;
}

export async function deriveGenerationFor(
  services: Services,
  account: Account,
  sourceId: string,
  operation: Operation,
  input: DeriveInput,
): Promise<{ generation: Generation; replayed: boolean }> {
  const { body, ...options } = input;
  // The body first: a malformed one is a 400 whatever the source.
  const derivation = operation === 'extend' ? parseExtend(body) : parseRemix(body);
  const source = await findOwnGeneration(services, account.id, sourceId);
  return services.generations.derive(
    account,
    source,
    derivation,
    { min: LIMITS.minDuration, max: LIMITS.maxDuration },
    options,
  );
}

/** `{ "seconds": n }` of new material, or `{ "sections": [...] }` to play after the source's last bar line. */
export const ExtendRequest = strictBody({
  seconds: number({ min: 1, max: LIMITS.maxDuration - LIMITS.minDuration, unit: 'seconds' })
    .nullish()
    .meta({
      description:
        "Seconds of new material (rounded to whole bars) played after the source's bars and before a new ending like the source's; the new track must be 30–180 s.",
    }),
  sections: sections.nullish().meta({
    description:
      'A plan of what follows the source\'s bars, in place of its ending (the same schema as POST /v1/generate\'s "sections").',
  }),
}).meta({
  description: 'Give "seconds" or "sections", not both.',
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
});

export function parseExtend(body: Record<string, unknown>): Derivation {
  const given = parseWith(ExtendRequest, body);
  if (given.seconds != null && given.sections != null) {
    throw new ValidationError(
      'sections',
      'Give "seconds" (how much new material) or "sections" (the plan of what follows), not both.',
      'conflicting_fields',
    );
  }
  if (given.sections != null) return { operation: 'extend', sections: given.sections };
  if (given.seconds == null) {
    throw new ValidationError(
      'seconds',
      'Say how to extend the track: "seconds" of new material (such as {"seconds": 20}) or "sections" to play after it.',
      'missing_field',
    );
  }
  return { operation: 'extend', seconds: given.seconds };
}

/** `{ "section": i }` and what to change in it: its energy, instruments or lyrics, or a new seed (a random one when nothing else changes). */
export const RemixRequest = strictBody({
  section: number({ min: 0, max: MAX_SECTIONS - 1, integer: true })
    .nullish()
    .meta({ description: 'The index of the section to redo in the source\'s "plan".' }),
  ...sectionChanges,
  seed: number({ min: 0, max: LIMITS.maxSeed, integer: true }).nullish().meta({
    description:
      "Compose the section again from this seed (default: the source's seed when something else changes, so only that changes; a new random seed when nothing else does).",
  }),
}).meta({
  description:
    'What to change in the section: energy, instruments, lyrics or seed. Only "section" composes it anew from a new random seed, which the new generation reports as its `seed`.',
  required: ['section'],
  examples: [{ section: 2, energy: 1 }, { section: 1, seed: 7 }, { section: 1 }],
});

export function parseRemix(body: Record<string, unknown>): Derivation {
  const given = parseWith(RemixRequest, body);
  const { section, seed } = given;
  if (section == null) {
    throw new ValidationError(
      'section',
      'Say which section to redo: "section" is its index in the generation\'s "plan" (0 for the first).',
      'missing_field',
    );
  }
  const changes = changesOf(given);
  // Only "section": compose it anew, from a new seed (the new generation reports it).
  const newSeed = seed ?? (Object.keys(changes).length === 0 ? randomInt(0, LIMITS.maxSeed + 1) : undefined);
  return { operation: 'remix', section, changes, ...(newSeed !== undefined ? { seed: newSeed } : {}) };
}

export const EXTEND_DESCRIPTION =
  'A new generation that continues a completed one: the same prompt, seed, tempo, key and meter, its bars unchanged sample for sample up to the bar line where its ending starts, ' +
  'then new material and a new ending. Counted against the quota like any generation; the answer, Idempotency-Key, polling and webhooks work as for POST /v1/generate. ' +
  "The WAV before that bar line is byte-identical to the source's; the other formats are made from that WAV. Stems are not made. " +
  '409 when the source is not completed, is a loop, or was made before plans were reported.';

export const REMIX_DESCRIPTION =
  'A new generation identical to a completed one outside one section (sample for sample: the 50 ms crossfades lie inside the section) and new inside it, ' +
  'with the energy, instruments, lyrics or seed asked for. Counted against the quota like any generation. Stems are not made. 409 as for extend.';
