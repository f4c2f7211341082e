/**
 * Full-length buffers kept on disk while they wait (issue 29: a render's memory). A finished stem waits through
 * the rest of the mix, the voice, the reverb and the master before its own turn; at 180 s each of its channels is
 * 32 MB, and seven stems held in memory were most of a heavy render's peak. Written out as raw floats and read
 * back bit for bit, so the output does not change; the files live in one directory per render under the system's
 * temporary directory (TMPDIR), removed when the render ends, whether it succeeded or not.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { free } from './free.ts';

/** One array on disk: where, and how many floats. */
export interface Spilled {
  readonly path: string;
  readonly length: number;
}

export class Spill {
  private dir: string | null = null;
  private count = 0;

  /** Writes the array to its own file and frees it (free.ts): nothing may read it after. */
  put(array: Float32Array): Spilled {
    this.dir ??= mkdtempSync(join(tmpdir(), 'tunesmith-spill-'));
    const path = join(this.dir, String(this.count++));
    const fd = openSync(path, 'w');
    try {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      closeSync(fd);
    }
    const length = array.length;
    free(array);
    return { path, length };
  }

  /** The array back, as it was put; its file is removed. */
  take(spilled: Spilled): Float32Array {
    const array = new Float32Array(spilled.length);
    const bytes = new Uint8Array(array.buffer);
    const fd = openSync(spilled.path, 'r');
    try {
      for (let at = 0; at < bytes.length; ) {
        const read = readSync(fd, bytes, at, bytes.length - at, at);
        if (read === 0) throw new Error(`spilled buffer ${spilled.path} ends early`);
        at += read;
      }
    } finally {
      closeSync(fd);
    }
    unlinkSync(spilled.path);
    return array;
  }

  /** Removes whatever was not taken back (a render that failed half-way). */
  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}
