/**
 * Where the bytes of rendered files live, by key ("audio/<account_id>/<generation_id>.wav"). The data dir's
 * files (file-blob-store.ts) are the first implementation; object storage can be another. Keys are chosen by
 * the service, never taken from a URL.
 */
import type { Readable } from 'node:stream';

export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface BlobRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface BlobStore {
  /** Stores `bytes` under `key`, whole or not at all (a reader never sees half a file). */
  put(key: string, bytes: Uint8Array, options: { contentType: string }): Promise<void>;
  /** The blob's bytes, all of them or one range; a BlobNotFoundError when there is none. */
  open(key: string, range?: BlobRange): Promise<Readable>;
  /** Size and type, or undefined when there is no such blob. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Removes the blob; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}
