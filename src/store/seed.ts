/**
 * Writes many finished generations straight into a (closed) data dir, in the store's on-disk layout,
 * for tests and benchmarks that need a long history without making it through the API.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newGenerationId } from '../ids.ts';
import { quotaMonth } from '../plans.ts';
import type { Generation } from './types.ts';

export interface SeedOptions {
  /** Timestamps step back one second per generation from here. */
  newest?: Date;
  /** Statuses cycled through in order; completed by default. */
  statuses?: Generation['status'][];
}

const PARALLEL_WRITES = 64;

export async function seedGenerations(dataDir: string, accountId: string, count: number, options: SeedOptions = {}): Promise<void> {
  const dir = join(dataDir, 'generations', accountId);
  await mkdir(dir, { recursive: true });
  const newest = (options.newest ?? new Date()).getTime();
  const statuses = options.statuses ?? ['completed'];
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < count) {
      const n = next++;
      const created = new Date(newest - n * 1000);
      const status = statuses[n % statuses.length]!;
      const generation: Generation = {
        id: newGenerationId(),
        account_id: accountId,
        status,
        prompt: `seeded generation ${n}`,
        duration: 60,
        style: null,
        instrumental: true,
        seed: n,
        lyrics: null,
        callback_url: null,
        created_at: created.toISOString(),
        started_at: created.toISOString(),
        completed_at: status === 'completed' || status === 'failed' ? created.toISOString() : null,
        attempts: 1,
        title: `Seed ${n}`,
        metadata: null,
        files: null,
        error: status === 'failed' ? { code: 'render_failed', message: 'Seeded failure.' } : null,
        quota_month: quotaMonth(created),
      };
      await writeFile(join(dir, `${generation.id}.json`), JSON.stringify(generation));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, writer));
}
