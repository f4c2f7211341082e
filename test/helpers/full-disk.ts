/** A disk that fills up (or fails), without filling a real one: the store's `open` seam (OpenStoreOptions.open). */
import { open } from 'node:fs/promises';
import type { OpenFile } from '../../src/store/atomic-file.ts';

/**
 * Writes to the temp files for which `fails(path)` says so take one byte and then throw `code` (ENOSPC:
 * the disk is full), as a real full disk does halfway through a write.
 */
export function fillingDisk(fails: (path: string) => boolean, code = 'ENOSPC'): OpenFile {
  return async (path, flags, mode) => {
    const handle = await open(path, flags, mode);
    if (!fails(path)) return handle;
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'writeFile') {
          return async (data: string | Uint8Array) => {
            await target.write(Buffer.from(data).subarray(0, 1));
            throw Object.assign(new Error(`${code}: the test disk failed, write`), { code });
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}
