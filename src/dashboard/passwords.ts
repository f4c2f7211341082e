/** Password hashing with scrypt from node:crypto: a random salt per password, a constant-time check. */
import { randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { safeEqual } from '../ids.ts';
import type { PasswordHash } from '../store/credentials.ts';

// N = 2^15 with r = 8 needs 32 MiB per hash; ~60 ms on this class of machine.
const PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: 256 * options.N! * options.r! }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, PARAMS);
  return { algorithm: 'scrypt', ...PARAMS, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await scrypt(password, Buffer.from(stored.salt, 'base64'), { N: stored.N, r: stored.r, p: stored.p });
  return safeEqual(actual, expected);
}

/** A hash of nothing anyone knows: checked against when an email is unknown, so both cases take as long. */
let decoy: Promise<PasswordHash> | undefined;
export function decoyHash(): Promise<PasswordHash> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
