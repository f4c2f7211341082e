/** The store's errors, and which of them (and of the disk's and the database's) mean the records cannot be changed now. */
import type { StorageProblem } from '../domain/errors.ts';
import { databaseUnavailable } from './postgres/errors.ts';

/** A relative path would leave the data dir (.., absolute, NUL, or through a symlink). */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError' as const;
  constructor(readonly path: string) {
    super('The file path is not inside the data dir.');
  }
}

/** The store was used after close(). */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError' as const;
  constructor() {
    super('The store is closed.');
  }
}

/**
 * A data file that exists but cannot be what it claims (not JSON, cut short, wrong shape). The start stops
 * with this one sentence, naming the file and what to do, rather than losing what the file held.
 */
export class DamagedFileError extends Error {
  override name = 'DamagedFileError' as const;
  constructor(
    readonly path: string,
    problem: string,
    remedy: string,
  ) {
    super(`${path} is damaged (${problem}): ${remedy}.`);
  }
}

/** The start needed to write to the data dir and its disk is full: one sentence for the operator, not a stack. */
export class StorageFullError extends Error {
  override name = 'StorageFullError' as const;
  constructor(readonly dataDir: string) {
    super(
      `The disk holding the data dir ${dataDir} is full, so the server cannot start: free some space, then start again.`,
    );
  }
}

export const isStorageFull = (error: unknown): boolean =>
  ['ENOSPC', 'EDQUOT'].includes(String((error as NodeJS.ErrnoException | undefined)?.code));

/** No blob under the key asked for (never stored, deleted, or refused as a key outside the store). */
export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError' as const;
  constructor(readonly key: string) {
    super(`No stored file ${key}.`);
  }
}

/** A setting whose stored value cannot be read back; `where` names it for the operator (the file, in the file store). */
export class DamagedSettingError extends Error {
  override name = 'DamagedSettingError' as const;
  constructor(readonly where: string) {
    super(`${where} is damaged.`);
  }
}

/** Thrown at open when another live server owns the data dir. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError' as const;
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data dir ${dataDir} is in use by another Tunesmith server (pid ${pid}). Stop it, or set TUNESMITH_DATA_DIR to another directory.`,
    );
  }
}

/**
 * This server no longer holds its data dir: the lock file was replaced by another process (most often a
 * second server started after server.lock was deleted by hand). Its writes would overwrite the other's.
 */
export class DataDirLockLostError extends Error {
  override name = 'DataDirLockLostError' as const;
  constructor(readonly dataDir: string) {
    super(
      `This server no longer holds the lock on its data dir ${dataDir} (server.lock was replaced by another process): it refuses every change. Stop the other server or this one, then restart one.`,
    );
  }
}

/** Which StorageProblem `error` is, if it is one: the store's own errors, a full disk, a database full or gone. */
export function storageProblem(error: unknown): StorageProblem | undefined {
  if (error instanceof StoreClosedError) return 'shutting_down';
  if (error instanceof DataDirLockLostError) return 'lock_lost';
  if (isStorageFull(error)) return 'full';
  return databaseUnavailable(error);
}
