/**
 * Password hashing with scrypt from node:crypto: a random salt per password, a constant-time check.
 * scrypt runs on libuv's thread pool (4 threads), which file I/O shares: so only a few hashes run at once,
 * a few more wait their turn, and beyond that a check is refused rather than queued without end.
 */
import { randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { safeEqual } from '../ids.ts';
import type { PasswordHash } from '../domain/model.ts';

// N = 2^15 with r = 8 needs 32 MiB per hash; ~60 ms on this class of machine.
const PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

/** Two pool threads at most, so at least two stay free for the store's and the renders' file I/O. */
export const PASSWORD_SLOTS = { running: 2, waiting: 32 } as const;

/** Too many password checks are in progress; the caller should answer "try again shortly". */
export class PasswordChecksBusyError extends Error {
  override name = 'PasswordChecksBusyError' as const;
  constructor() {
    super('Too many sign-ins are being checked right now. Wait a few seconds, then try again.');
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_SLOTS.running) {
    if (waiting.length >= PASSWORD_SLOTS.waiting) throw new PasswordChecksBusyError();
    // The finishing check hands its slot straight over, so `running` is not decremented in between.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function scrypt(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(
          password.normalize('NFC'),
          salt,
          KEY_BYTES,
          { ...options, maxmem: 256 * options.N * options.r },
          (err, key) => (err ? reject(err) : resolve(key)),
        ),
      ),
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
  // A refused (busy) first try is forgotten, so the next caller makes the decoy again.
  decoy ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  return decoy;
}
