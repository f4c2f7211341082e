/**
 * Crash-safe file writes: a write lands whole or not at all. The data goes to a temp file in the same
 * directory, is fsynced, renamed over the target, and the directory is fsynced so the rename itself
 * survives a power loss.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export const TEMP_SUFFIX = '.tmp';

export async function atomicWriteFile(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const file = await open(temp, 'wx', mode);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
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

  write(path: string, snapshot: () => string | Uint8Array, mode?: number): Promise<void> {
    const existing = this.#slots.get(path);
    if (existing?.queued) return existing.queued;
    const slot: Slot = existing ?? { tail: Promise.resolve(), queued: null };
    const job = slot.tail
      .catch(() => undefined)
      .then(() => {
        slot.queued = null;
        return atomicWriteFile(path, snapshot(), mode);
      });
    slot.queued = job;
    slot.tail = job;
    this.#slots.set(path, slot);
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
}

/** A lowdb adapter over one JSON file, written with the crash-safe recipe above. */
export class AtomicJsonFile<T> implements Adapter<T> {
  readonly #mode: number | undefined;

  constructor(
    readonly path: string,
    private readonly writer: CoalescingWriter,
    options: AtomicJsonFileOptions = {},
  ) {
    this.#mode = options.mode;
  }

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.path, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Coalesced with other writes of the file: `data` is serialised when the write starts, so keep mutating one object. */
  write(data: T): Promise<void> {
    return this.writer.write(this.path, () => JSON.stringify(data), this.#mode);
  }
}
