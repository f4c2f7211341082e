/**
 * Runs an admin command against a data dir, whoever holds it: directly (taking the lock) when no
 * server runs, through the server's admin channel when one does. A lock held by another CLI run,
 * or a server still starting, is waited for briefly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../config.ts';
import { CredentialStore } from '../store/credentials.ts';
import { DataDirLockedError, openStore, readLiveLock, type Store } from '../store/index.ts';
import { AdminUnavailableError, callAdmin } from './admin-channel.ts';
import { runAdminCommand, type AdminRequest } from './admin-commands.ts';

const RETRY_MS = 100;
/** Written by each server start: the public URL it was reached at. */
export const LAST_URL_FILE = 'last-public-url.json';

/** Where the data dir's server was last reached, if it ever started. */
function lastServerUrl(dataDir: string): string | undefined {
  try {
    const value = (JSON.parse(readFileSync(join(dataDir, LAST_URL_FILE), 'utf8')) as { public_url?: unknown }).public_url;
    return typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `publicUrlGiven`: the environment named the URL (TUNESMITH_PUBLIC_URL, PORT or HOST). Otherwise links made while
 * no server runs point where the data dir's server was last reached, not at the default port.
 */
export async function runOnDataDir(
  config: Pick<Config, 'dataDir' | 'publicUrl'> & { publicUrlGiven?: boolean },
  request: AdminRequest,
  waitMs = 10_000,
): Promise<unknown> {
  const { dataDir } = config;
  const deadline = Date.now() + waitMs;
  for (;;) {
    let store: Store;
    try {
      store = await openStore({ dataDir, owner: 'cli' });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      if (readLiveLock(dataDir)?.owner === 'server') {
        try {
          return await callAdmin(dataDir, request);
        } catch (callError) {
          if (!(callError instanceof AdminUnavailableError)) throw callError;
        }
      }
      if (Date.now() > deadline) throw error;
      await delay(RETRY_MS);
      continue;
    }
    const credentials = new CredentialStore(dataDir, { open: store.openForWrite });
    try {
      const publicUrl = config.publicUrlGiven ? config.publicUrl : (lastServerUrl(dataDir) ?? config.publicUrl);
      return await runAdminCommand({ store, credentials, publicUrl }, request);
    } finally {
      await credentials.flush();
      await store.close();
    }
  }
}
