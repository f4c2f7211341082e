/**
 * Identifiers and API keys. Ids are random (not sequential) so they reveal nothing about volume or
 * neighbours; keys carry a readable prefix for humans and are only ever stored as a sha256 hash.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'ts_live_';
/** How much of a key is kept for display ("ts_live_ab12"). */
const DISPLAY_PREFIX_LENGTH = 12;

const randomId = (prefix: string, bytes: number): string => prefix + randomBytes(bytes).toString('base64url');

/** 128 random bits, URL-safe. */
export const newGenerationId = (): string => randomId('gen_', 16);
/** Shared by the generations one `variations` request makes. */
export const newBatchId = (): string => randomId('batch_', 12);
export const newAccountId = (): string => randomId('acct_', 12);
export const newKeyId = (): string => randomId('key_', 12);

export interface NewApiKey {
  /** The whole key, shown to its owner once. */
  key: string;
  prefix: string;
  hash: string;
}

/** 256 random bits behind a readable prefix. */
export function newApiKey(): NewApiKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashSecret(key) };
}

/** sha256 hex of a secret (an API key, a session id, a sign-in token): what is stored instead of it. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time equality of two secrets or digests. A length mismatch returns early: lengths are not secret. */
export function safeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = typeof a === 'string' ? Buffer.from(a) : a;
  const right = typeof b === 'string' ? Buffer.from(b) : b;
  return left.length === right.length && timingSafeEqual(left, right);
}
