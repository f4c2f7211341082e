/**
 * Runs an admin command against a data dir, whoever holds it: directly (taking the lock) when no
 * server runs, through the server's admin channel when one does. A lock held by another CLI run,
 * or a server still starting, is waited for briefly. With TUNESMITH_DATABASE_URL it runs on the database directly.
 */
import { readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../config.ts';
import { DataDirLockedError, openStore, readLiveLock, type Repository } from '../store/index.ts';
import { AdminUnavailableError, callAdmin } from './admin-channel.ts';
import { runAdminCommand, type AdminRequest } from './admin-commands.ts';

const RETRY_MS = 100;

/**
 * A command that reads or changes records, run on a data dir that holds nothing and that no server runs on: most
 * likely not the server's (a checkout's ./data when the server was started with another TUNESMITH_DATA_DIR).
 * Nothing is created there; the CLI says where it looked and how to point at the server's.
 */
export class NoDataError extends Error {
  override name = 'NoDataError' as const;
  constructor(readonly dataDir: string) {
    super(`No Tunesmith data in ${dataDir}: no server has used it, and none runs on it. Nothing was read or created.`);
  }
}

/** Missing or empty: nothing a server or an earlier command left. */
export function holdsNothing(dataDir: string): boolean {
  try {
    return readdirSync(dataDir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}
/** Where the data dir's server was last reached (each server start keeps it as a setting), if it ever started. */
async function lastServerUrl(repository: Repository): Promise<string | undefined> {
  try {
    const value = ((await repository.settings.get('last-public-url')) as { public_url?: unknown } | undefined)
      ?.public_url;
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
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'databaseUrl'> & { publicUrlGiven?: boolean },
  request: AdminRequest,
  // Another CLI run holds the lock only for its one command, but on a loaded machine (a CI box running tests in
  // parallel) a few such runs in a row took over 10 s; a person or script would rather wait than be refused.
  waitMs = 30_000,
): Promise<unknown> {
  // In PostgreSQL mode the records are the database's, which any number of processes share: no lock, no server to ask.
  if (config.databaseUrl) return runOnDatabase(config.databaseUrl, config, request);
  const { dataDir } = config;
  // Creating a key is how a data dir starts; every other command needs records to work on.
  if (request.command !== 'keys.create' && holdsNothing(dataDir)) throw new NoDataError(dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    let store: Repository;
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
    try {
      const publicUrl = config.publicUrlGiven ? config.publicUrl : ((await lastServerUrl(store)) ?? config.publicUrl);
      return await runAdminCommand({ repository: store, publicUrl }, request);
    } finally {
      await store.close();
    }
  }
}

async function runOnDatabase(
  url: string,
  config: Pick<Config, 'publicUrl'> & { publicUrlGiven?: boolean },
  request: AdminRequest,
): Promise<unknown> {
  // Loaded here: the PostgreSQL client is only for a database, and every CLI command starts through this file.
  const { openPostgresRepository } = await import('../store/postgres/index.ts');
  const repository = await openPostgresRepository({ url, poolSize: 2 });
  try {
    const publicUrl = config.publicUrlGiven
      ? config.publicUrl
      : ((await lastServerUrl(repository)) ?? config.publicUrl);
    return await runAdminCommand({ repository, publicUrl }, request);
  } finally {
    await repository.close();
  }
}
