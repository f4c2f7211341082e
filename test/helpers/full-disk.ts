/** A disk that fills up, without filling a real one: the store's `open` seam (OpenStoreOptions.open). */
import { open } from 'node:fs/promises';
import type { OpenFile } from '../../src/store/atomic-file.ts';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** A disk that fills up once `full()` says so: the temp file is created, takes one byte, then ENOSPC. */
export function fillingDisk(full: () => boolean): OpenFile {
  return async (path, flags, mode) => {
    const handle = await open(path, flags, mode);
    if (!full()) return handle;
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'writeFile') {
          return async (data: string | Uint8Array) => {
            await target.write(Buffer.from(data).subarray(0, 1));
            throw enospc();
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}

