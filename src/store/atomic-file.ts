/**
 * Crash-safe file writes: a write lands whole or not at all. The data goes to a temp file in the same
 * directory, is fsynced, renamed over the target, and the directory is fsynced so the rename itself
 * survives a power loss. Files that cannot be rebuilt keep their previous version as `<name>.bak`, and
 * reading one back checks what it holds (damaged-file errors name the file and the way back).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, link, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { DamagedFileError } from './errors.ts';
import type { Problem } from './shape.ts';

export const TEMP_SUFFIX = '.tmp';
export const BACKUP_SUFFIX = '.bak';

/** How a write opens its temp file: the seam where tests put a disk that fills up. */
export type OpenFile = (path: string, flags: string, mode: number) => Promise<FileHandle>;

export interface WriteOptions {
  /** @default node:fs/promises open */
  open?: OpenFile;
  /** Permissions of the file as written (e.g. 0o600 for one holding secrets). @default 0o644 */
  mode?: number;
  /** Keep the version being replaced as `<path>.bak`: the way back should the file ever be damaged. @default false */
  backup?: boolean;
}

const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);

export async function atomicWriteFile(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> {
  const temp = tempPath(path);
  try {
    const file = await (options.open ?? open)(temp, 'wx', options.mode ?? 0o644);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    if (options.backup) await keepBackup(path);
    await rename(temp, path);
  } catch (error) {
    // A failed write (a full disk, most often) leaves nothing behind: the target is untouched.
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Removes the temp files a crash or a failed write left in `dir` (call it only while holding the data-dir lock). */
export function sweepTempFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) if (name.endsWith(TEMP_SUFFIX)) rmSync(join(dir, name), { force: true });
}

/**
 * A hard link, not a copy: the old version costs no bytes and no time, and the rename then swaps in the new
 * one. A copy only where the file system has no hard links.
 */
async function keepBackup(path: string): Promise<void> {
  const temp = tempPath(`${path}${BACKUP_SUFFIX}`);
  try {
    await link(path, temp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    await copyFile(path, temp).catch(async (copyError: unknown) => {
      await rm(temp, { force: true }).catch(() => undefined);
      throw copyError;
    });
  }
  try {
    await rename(temp, `${path}${BACKUP_SUFFIX}`);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** What to do about a damaged file: its `.bak` when there is one, else a backup. */
export function damagedFile(path: string, problem: string): DamagedFileError {
  const backup = `${path}${BACKUP_SUFFIX}`;
  const remedy = existsSync(backup)
    ? `stop here and restore it from ${backup} (its previous good version) or from a backup, then start again`
    : 'stop here and restore it from a backup, then start again';
  return new DamagedFileError(path, problem, remedy);
}

/** Parses a data file's text and checks its shape; throws a DamagedFileError naming the file otherwise. */
export function parseDataFile<T>(path: string, text: string, check: (value: unknown) => Problem): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damagedFile(path, text.trim() === '' ? 'it is empty' : 'it is not valid JSON, perhaps cut short');
  }
  const problem = check(value);
  if (problem) throw damagedFile(path, problem);
  return value as T;
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface Slot {
  tail: Promise<void>;
  /** A write that has not started yet: later callers join it, as it will snapshot their change too. */
  queued: Promise<void> | null;
}

/**
 * Serialises writes per path and coalesces bursts: while one write of a file is in flight, every
 * further request shares a single follow-up write that snapshots the latest state when it starts.
 * So the file never goes back in time, and N quick changes cost at most two writes.
 */
export class CoalescingWriter {
  readonly #slots = new Map<string, Slot>();
  readonly #open: OpenFile | undefined;
  readonly #onSettled: (error: unknown) => void;

  /** `onSettled` hears of every write's end: undefined when it landed, else what it failed with. */
  constructor(options: { open?: OpenFile; onSettled?: (error: unknown) => void } = {}) {
    this.#open = options.open;
    this.#onSettled = options.onSettled ?? (() => undefined);
  }

  write(path: string, snapshot: () => string | Uint8Array, options?: WriteOptions): Promise<void> {
    const existing = this.#slots.get(path);
    if (existing?.queued) return existing.queued;
    const slot: Slot = existing ?? { tail: Promise.resolve(), queued: null };
    const job = slot.tail
      .catch(() => undefined)
      .then(() => {
        slot.queued = null;
        return atomicWriteFile(path, snapshot(), { open: this.#open, ...options });
      });
    slot.queued = job;
    slot.tail = job;
    this.#slots.set(path, slot);
    job.then(
      () => this.#onSettled(undefined),
      (error: unknown) => this.#onSettled(error),
    );
    job
      .finally(() => {
        if (slot.tail === job) this.#slots.delete(path);
      })
      .catch(() => undefined);
    return job;
  }

  /** Resolves once every write requested so far has settled. */
  async idle(): Promise<void> {
    while (this.#slots.size > 0) {
      await Promise.allSettled([...this.#slots.values()].map((slot) => slot.tail));
    }
  }
}

export interface AtomicJsonFileOptions {
  /** Permissions of the file as written (e.g. 0o600 for one holding secrets). @default 0o644 */
  mode?: number;
  /** What the file must hold to be read back: a damaged one is refused, never taken for a missing one. */
  check: (value: unknown) => Problem;
}

/** A lowdb adapter over one JSON file, written with the crash-safe recipe above, keeping a `.bak`. */
export class AtomicJsonFile<T> implements Adapter<T> {
  readonly #options: AtomicJsonFileOptions;

  constructor(
    readonly path: string,
    private readonly writer: CoalescingWriter,
    options: AtomicJsonFileOptions,
  ) {
    this.#options = options;
  }

  /** null only when the file does not exist (a first start). */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return parseDataFile<T>(this.path, text, this.#options.check);
  }

  /** Coalesced with other writes of the file: `data` is serialised when the write starts, so keep mutating one object. */
  write(data: T): Promise<void> {
    return this.writer.write(this.path, () => JSON.stringify(data), { mode: this.#options.mode, backup: true });
  }
}
