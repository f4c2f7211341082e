/**
 * A zip of files on disk, made while it is sent: stored, not compressed (WAV barely compresses, and storing
 * costs no CPU), so nothing is kept on disk for it and memory holds a chunk or two. The zip format comes from
 * fflate; the reading keeps to the client's pace (a slow download pauses the file being read).
 */
import type { FileHandle } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

export interface ZipEntry {
  /** The name inside the zip. */
  name: string;
  /** An open file; the stream closes it. */
  handle: FileHandle;
}

export function zipStream(entries: readonly ZipEntry[]): Readable {
  const output = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      output.destroy(error);
      return;
    }
    output.write(chunk);
    if (final) output.end();
  });
  const closeAll = () => Promise.all(entries.map((entry) => entry.handle.close().catch(() => undefined)));
  output.on('close', () => void closeAll());

  const next = (index: number): void => {
    const entry = entries[index];
    if (!entry) {
      zip.end();
      return;
    }
    const file = new ZipPassThrough(entry.name);
    zip.add(file);
    const input = entry.handle.createReadStream({ autoClose: false });
    input.on('data', (chunk: string | Buffer) => {
      file.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      // The zip writes synchronously into the output: when the client is behind, wait for it.
      if (output.writableNeedDrain) {
        input.pause();
        output.once('drain', () => input.resume());
      }
    });
    input.on('end', () => {
      file.push(new Uint8Array(0), true);
      next(index + 1);
    });
    input.on('error', (error) => output.destroy(error));
    output.once('close', () => input.destroy());
  };
  next(0);
  return output;
}
