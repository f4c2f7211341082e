/**
 * The download-signing secret: 32 random bytes made on first start and kept in the data dir
 * (mode 0600), so signed URLs stay valid across restarts.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from './store/atomic-file.ts';

const SECRET_FILE = 'signing.key';
const SECRET_PATTERN = /^[0-9a-f]{64}$/;

/** Reads the data dir's signing secret, creating it when missing (call it while holding the data-dir lock). */
export async function loadSigningSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, SECRET_FILE);
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (SECRET_PATTERN.test(existing)) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  await atomicWriteFile(path, `${secret}\n`, 0o600);
  return secret;
}
