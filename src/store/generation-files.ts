/**
 * Reads every generation file at open. Synchronous on purpose: nothing else runs during open, and
 * sync reads of many small files are several times faster than promise-based ones. Temp files left by
 * a crash mid-write are removed, as the target they were meant to replace is still whole.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_SUFFIX } from './atomic-file.ts';
import type { Generation } from './types.ts';

export interface IdempotencyRecord {
  key: string;
  bodyHash: string;
}

/** A generation as written on disk: the idempotency record travels with it, so both land in one atomic write. */
export type StoredGeneration = Generation & { idempotency?: IdempotencyRecord };

/**
 * What is left of a deleted generation: no prompt, lyrics or audio, only what keeps its month's quota
 * spent across restarts.
 */
export interface DeletedGeneration {
  id: string;
  account_id: string;
  status: Generation['status'];
  quota_month: string;
  created_at: string;
  deleted_at: string;
}

export const isDeleted = (stored: StoredGeneration | DeletedGeneration): stored is DeletedGeneration => 'deleted_at' in stored;

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export function loadGenerationFiles(root: string, warn: (message: string) => void): (StoredGeneration | DeletedGeneration)[] {
  const loaded: (StoredGeneration | DeletedGeneration)[] = [];
  for (const accountDir of listDir(root)) {
    for (const name of listDir(join(root, accountDir))) {
      const path = join(root, accountDir, name);
      if (name.endsWith(TEMP_SUFFIX)) {
        rmSync(path, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        loaded.push(JSON.parse(readFileSync(path, 'utf8')) as StoredGeneration);
      } catch (error) {
        warn(`Skipped unreadable generation file ${path}: ${(error as Error).message}`);
      }
    }
  }
  return loaded;
}
