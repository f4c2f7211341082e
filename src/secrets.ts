/**
 * The download-signing secret: 32 random bytes made on first start and kept in the data dir
 * (mode 0600), so signed URLs stay valid across restarts.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from './store/atomic-file.ts';
import { DamagedFileError } from './store/errors.ts';

const SECRET_FILE = 'signing.key';
const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Reads the data dir's signing secret, creating it when missing (call it while holding the data-dir lock).
 * One that is there but damaged stops the start: a new one would end every dashboard session and break
 * every download link already given out, so replacing it is the operator's call, never ours.
 */
export async function loadSigningSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, SECRET_FILE);
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (SECRET_PATTERN.test(existing)) return existing;
    throw new DamagedFileError(
      path,
      'it is not 64 hex digits',
      'stop here and restore it from a backup, or delete it to make a new key, which ends every dashboard session and breaks every download link already given out',
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  await atomicWriteFile(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Where a shared store keeps secrets every node must hold alike (PostgresRepository.sharedSecret). */
export interface SharedSecrets {
  sharedSecret(name: string, make: () => string): Promise<string>;
}

/**
 * The signing secret in PostgreSQL mode: one for every node on the database, made by whichever node starts first,
 * so a link or a dashboard cookie one node signed is good on every other.
 */
export async function loadSharedSigningSecret(store: SharedSecrets): Promise<string> {
  const secret = await store.sharedSecret('signing-key', () => randomBytes(32).toString('hex'));
  if (!SECRET_PATTERN.test(secret))
    throw new Error(
      'The shared_secrets row "signing-key" in the database is not 64 hex digits: restore it from a backup, or delete it to make a new key (which ends every dashboard session and breaks every download link already given out).',
    );
  return secret;
}
