/** A task's stems on disk: one WAV per role beside the mix's, named after it (`<id>.stem-drums.wav`). */
import type { TrackStem } from '../../engine/index.ts';
import type { Store } from '../store/types.ts';

/** Writes each stem next to `wav` (a data-dir-relative path); returns role → path. */
export async function writeStems(store: Pick<Store, 'writeFile'>, wav: string, stems: readonly TrackStem[]): Promise<Record<string, string>> {
  const base = wav.replace(/\.wav$/, '');
  const paths = Object.fromEntries(stems.map((stem) => [stem.role, `${base}.stem-${stem.role}.wav`]));
  await Promise.all(stems.map((stem) => store.writeFile(paths[stem.role]!, stem.wav)));
  return paths;
}
