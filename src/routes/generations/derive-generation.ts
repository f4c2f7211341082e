/**
 * Making a generation from another, whoever asks: POST /v1/generation/{id}/extend and …/remix, and the
 * dashboard's buttons, come through here, so all get the same validation; the generations module does the rest.
 */
import { randomInt } from 'node:crypto';
import type { Derivation } from '../../generations/derive.ts';
import type { CreateOptions } from '../../generations/generations.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Services } from '../../http/types.ts';
import { readNumber, rejectUnknownFields } from '../../http/validate.ts';
import type { Account, Generation } from '../../store/types.ts';
import { findOwnGeneration } from './find-generation.ts';
import { LIMITS } from './generate-request.ts';
import { MAX_SECTIONS, readSectionChanges, readSections } from './plan-sections.ts';

export type Operation = Derivation['operation'];

export const EXTEND_FIELDS = ['seconds', 'sections'] as const;
export const REMIX_FIELDS = ['section', 'energy', 'instruments', 'lyrics', 'seed'] as const;

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
export function parseExtend(body: Record<string, unknown>): Derivation {
  rejectUnknownFields(body, EXTEND_FIELDS);
  const seconds = readNumber(body, 'seconds', {
    min: 1,
    max: LIMITS.maxDuration - LIMITS.minDuration,
    unit: 'seconds',
  });
  const sections = readSections(body);
  if (seconds !== undefined && sections !== undefined) {
    throw new ValidationError(
      'sections',
      'Give "seconds" (how much new material) or "sections" (the plan of what follows), not both.',
      'conflicting_fields',
    );
  }
  if (sections !== undefined) return { operation: 'extend', sections };
  if (seconds === undefined) {
    throw new ValidationError(
      'seconds',
      'Say how to extend the track: "seconds" of new material (such as {"seconds": 20}) or "sections" to play after it.',
      'missing_field',
    );
  }
  return { operation: 'extend', seconds };
}

/** `{ "section": i }` and what to change in it: its energy, instruments or lyrics, or a new seed (a random one when nothing else changes). */
export function parseRemix(body: Record<string, unknown>): Derivation {
  rejectUnknownFields(body, REMIX_FIELDS);
  const section = readNumber(body, 'section', { min: 0, max: MAX_SECTIONS - 1, integer: true });
  if (section === undefined) {
    throw new ValidationError(
      'section',
      'Say which section to redo: "section" is its index in the generation\'s "plan" (0 for the first).',
      'missing_field',
    );
  }
  const changes = readSectionChanges(body, '');
  // Only "section": compose it anew, from a new seed (the new generation reports it).
  const seed =
    readNumber(body, 'seed', { min: 0, max: LIMITS.maxSeed, integer: true }) ??
    (Object.keys(changes).length === 0 ? randomInt(0, LIMITS.maxSeed + 1) : undefined);
  return { operation: 'remix', section, changes, ...(seed !== undefined ? { seed } : {}) };
}
