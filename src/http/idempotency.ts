import { createHash } from 'node:crypto';
import { ValidationError } from '../domain/errors.ts';
import type { AppContext } from './types.ts';

const KEY = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header: up to 255 printable ASCII characters, or undefined when absent. */
export function readIdempotencyKey(ctx: AppContext): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || !KEY.test(raw)) {
    throw new ValidationError(
      'Idempotency-Key',
      'The Idempotency-Key header must be one value of 1–255 printable ASCII characters (a UUID is a good choice).',
      'invalid_idempotency_key',
    );
  }
  return raw;
}

/**
 * A hash of the body's meaning, not its bytes: key order and whitespace do not make a retry "different".
 * Hashed before defaults are filled in, because an omitted seed is drawn at random.
 */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
