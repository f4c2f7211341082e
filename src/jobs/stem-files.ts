/** A task's stems on disk: one WAV per role beside the mix's, named after it (`<id>.stem-drums.wav`). */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TrackStem } from '../../engine/index.ts';
import type { Store } from '../store/types.ts';

/** Writes each stem next to `wav` (a data-dir-relative path); returns role → path. */
export async function writeStems(store: Pick<Store, 'writeFile'>, wav: string, stems: readonly TrackStem[]): Promise<Record<string, string>> {
  const base = wav.replace(/\.wav$/, '');
  const paths = Object.fromEntries(stems.map((stem) => [stem.role, `${base}.stem-${stem.role}.wav`]));
  await Promise.all(stems.map((stem) => store.writeFile(paths[stem.role]!, stem.wav)));
  return paths;
}

/** Removes whatever stems of `wav` are on disk (a save that failed part way): found by name, whichever roles they are. */
export async function removeStems(store: Pick<Store, 'resolveFile'>, wav: string): Promise<void> {
  const path = store.resolveFile(wav);
  const prefix = `${basename(path).replace(/\.wav$/, '')}.stem-`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(prefix)).map((name) => rm(join(dirname(path), name), { force: true }).catch(() => undefined)));
}
