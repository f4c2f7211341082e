/**
 * Writes many finished generations straight into a (closed) data dir, in the store's on-disk layout,
 * for tests and benchmarks that need a long history without making it through the API.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newGenerationId } from '../ids.ts';
import { quotaMonth } from '../domain/plans.ts';
import type { Generation } from '../domain/model.ts';

export interface SeedOptions {
  /** Timestamps step back one second per generation from here. */
  newest?: Date;
  /** Statuses cycled through in order; completed by default. */
  statuses?: Generation['status'][];
}

const PARALLEL_WRITES = 64;

export async function seedGenerations(
  dataDir: string,
  accountId: string,
  count: number,
  options: SeedOptions = {},
): Promise<void> {
  const dir = join(dataDir, 'generations', accountId);
  await mkdir(dir, { recursive: true });
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < count) {
      const generation = seededGeneration(accountId, next++, options);
      await writeFile(join(dir, `${generation.id}.json`), JSON.stringify(generation));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, writer));
}

/** The `n`th seeded generation (0 is the newest): the same records whichever store they are written to. */
export function seededGeneration(accountId: string, n: number, options: SeedOptions = {}): Generation {
  const created = new Date((options.newest ?? new Date()).getTime() - n * 1000);
  const statuses = options.statuses ?? ['completed'];
  const status = statuses[n % statuses.length] ?? 'completed';
  return {
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
}
