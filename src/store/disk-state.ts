/**
 * Whether the data dir's disk has room, as the file store's writes (records and audio alike) find out: full
 * since a write failed for want of space, until one lands again.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile, type OpenFile } from './atomic-file.ts';
import { isStorageFull } from './errors.ts';

/** Written and removed by probe() to learn whether the disk has room again. */
const PROBE_FILE = '.write-probe';

export class DiskState {
  #full = false;

  constructor(
    private readonly dataDir: string,
    private readonly open: OpenFile | undefined,
  ) {}

  /** Every write's end: undefined when it landed, else what it failed with. */
  readonly noteWrite = (error: unknown): void => {
    if (error === undefined) this.#full = false;
    else if (isStorageFull(error)) this.#full = true;
  };

  /** False while full. Space may have been freed since the last failure, with nothing written since: one tiny write tells. */
  async canWrite(): Promise<boolean> {
    if (!this.#full) return true;
    const probe = join(this.dataDir, PROBE_FILE);
    await atomicWriteFile(probe, new Uint8Array(1), { open: this.open }).then(
      () => this.noteWrite(undefined),
      (error: unknown) => this.noteWrite(error),
    );
    await rm(probe, { force: true }).catch(() => undefined);
    return !this.#full;
  }
}
