/**
 * The blob store over a directory (the data dir: keys are the paths the generation records have always
 * held, "audio/<account_id>/<id>.wav"). Writes are crash-safe (atomic-file.ts); a key that would leave the
 * directory, through ".." or a symlink, is refused as if it were not there.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open as openFile, rm, stat } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import type { Readable } from 'node:stream';
import { atomicWriteFile, type OpenFile } from './atomic-file.ts';
import type { BlobInfo, BlobRange, BlobStore } from './blob-store.ts';
import { BlobNotFoundError, UnsafePathError } from './errors.ts';
import { resolveInside } from './paths.ts';

/** A plain file keeps no type: it is told by the key's extension, as the service names its files. */
const CONTENT_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mid': 'audio/midi',
  '.mp3': 'audio/mpeg',
  '.opus': 'audio/ogg',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
  '.json': 'application/json',
};

export interface FileBlobStoreOptions {
  root: string;
  /** The root's realpath, computed once. */
  realRoot: string;
  /** How writes open their temp file (tests put a full disk here). */
  open?: OpenFile | undefined;
  /** Told of every write's end (undefined when it landed): the data dir's full-disk state. */
  onWrite?: (error: unknown) => void;
  /** Called before any change (a put, a delete), and throws to refuse it: the data-dir lock's check. */
  beforeChange?: () => void;
}

export class FileBlobStore implements BlobStore {
  readonly #options: FileBlobStoreOptions;
  readonly #knownDirs = new Set<string>();

  constructor(options: FileBlobStoreOptions) {
    this.#options = options;
  }

  async put(key: string, bytes: Uint8Array, _options: { contentType: string }): Promise<void> {
    this.#options.beforeChange?.();
    const path = this.#path(key);
    try {
      await this.#ensureDir(dirname(path));
      await atomicWriteFile(path, bytes, { open: this.#options.open });
    } catch (error) {
      this.#options.onWrite?.(error);
      throw error;
    }
    this.#options.onWrite?.(undefined);
  }

  async open(key: string, range?: BlobRange): Promise<Readable> {
    const path = this.#pathOrMissing(key);
    // Opened before the stream is made, so a missing file is an error here and not in the middle of a response.
    const handle = await openFile(path, 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' || error.code === 'EISDIR' ? new BlobNotFoundError(key) : error;
    });
    return createReadStream('', { fd: handle, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    let size: number;
    try {
      const info = await stat(this.#pathOrMissing(key));
      if (!info.isFile()) return undefined;
      size = info.size;
    } catch (error) {
      if (error instanceof BlobNotFoundError || (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return { size, contentType: CONTENT_TYPES[extname(key)] ?? 'application/octet-stream' };
  }

  async delete(key: string): Promise<void> {
    this.#options.beforeChange?.();
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    return resolveInside(this.#options.root, this.#options.realRoot, key);
  }

  /** A key that cannot be inside the store names nothing in it. */
  #pathOrMissing(key: string): string {
    try {
      return this.#path(key);
    } catch (error) {
      throw error instanceof UnsafePathError ? new BlobNotFoundError(key) : error;
    }
  }

  async #ensureDir(dir: string): Promise<void> {
    if (this.#knownDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.#knownDirs.add(dir);
  }
}
