/**
 * Renders engine tracks for the audio tests, once each: a keyed cache of promises over the real
 * render pool (engine/index.ts), so tests that share a track await the same render and a file's
 * renders run on both cores. WAVs go to a temp dir the caller removes.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRenderPool,
  type GenerationRequest,
  type RenderPool,
  type RenderedTrack,
} from '../../../engine/index.ts';

export interface RenderedFile {
  name: string;
  request: GenerationRequest;
  track: RenderedTrack;
  /** The WAV written to the temp dir, for the file-based analysers. */
  path: string;
  sha256: string;
}

export interface TrackRenderer {
  /** Renders `request` under `name` the first time; later calls with the same name share the result. */
  render(name: string, request: GenerationRequest): Promise<RenderedFile>;
  /** Every render started so far (settled or not), in start order. */
  started(): Promise<RenderedFile>[];
  close(): Promise<void>;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function createTrackRenderer(options: { workers?: number; prefix?: string } = {}): Promise<TrackRenderer> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix ?? 'tunesmith-renders-'));
  const pool: RenderPool = createRenderPool({ workers: options.workers ?? 2 });
  const cache = new Map<string, Promise<RenderedFile>>();
  return {
    render(name, request) {
      let pending = cache.get(name);
      if (!pending) {
        pending = (async () => {
          const track = await pool.render(request);
          const path = join(dir, `${name.replace(/[^a-z0-9-]+/gi, '_')}.wav`);
          await writeFile(path, track.wav);
          return { name, request, track, path, sha256: sha256(track.wav) };
        })();
        // Keep an unobserved failure from crashing the process; the test awaiting it reports it.
        pending.catch(() => {});
        cache.set(name, pending);
      }
      return pending;
    },
    started: () => [...cache.values()],
    async close() {
      await pool.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
