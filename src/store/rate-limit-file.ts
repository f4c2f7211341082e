/**
 * The per-account rate-limit buckets, kept as a setting (rate-limits.json in the data dir) so a restart does not hand every account a fresh
 * minute. Only buckets not yet full are written, at most once a second (a request never waits for the disk),
 * and once more at shutdown. A crash loses at most that second; a damaged file only costs the limits' state.
 */
import { DamagedSettingError } from './errors.ts';
import type { Settings } from './repository.ts';
import { TokenBucketLimiter, type Bucket } from '../domain/token-bucket.ts';
const WRITE_EVERY_MS = 1_000;

export interface PersistentLimiter {
  limiter: TokenBucketLimiter;
  /** Writes the state now if it changed since the last write. */
  flush(): Promise<void>;
}

export async function openPersistentLimiter(
  settings: Settings,
  options: { windowMs: number; now: () => number; warn: (line: string) => void },
): Promise<PersistentLimiter> {
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const spent = Object.fromEntries(limiter.spent(options.now()));
    writing = writing
      .then(() => settings.put('rate-limits', spent))
      .catch((error: Error) => options.warn(`Could not save the rate limits: ${error.message}`));
    return writing;
  };
  const limiter = new TokenBucketLimiter({
    windowMs: options.windowMs,
    buckets: await readBuckets(settings, options.warn),
    onTake: () => {
      timer ??= setTimeout(flush, WRITE_EVERY_MS).unref();
    },
  });
  return { limiter, flush: () => (timer === undefined ? writing : flush()) };
}

async function readBuckets(settings: Settings, warn: (line: string) => void): Promise<[string, Bucket][]> {
  const damaged = (where: string): [] => {
    warn(`${where} is damaged; every account starts with a full rate limit.`);
    return [];
  };
  let value: unknown;
  try {
    value = await settings.get('rate-limits');
  } catch (error) {
    if (error instanceof DamagedSettingError) return damaged(error.where);
    throw error;
  }
  if (value === undefined) return [];
  const entries = typeof value === 'object' && value !== null ? Object.entries(value) : undefined;
  if (entries?.every(([, bucket]) => isBucket(bucket))) return entries as [string, Bucket][];
  return damaged('The saved rate-limit state');
}

function isBucket(value: unknown): value is Bucket {
  const bucket = value as Partial<Bucket> | null;
  return (
    typeof bucket === 'object' &&
    bucket !== null &&
    [bucket.tokens, bucket.at, bucket.capacity].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    (bucket.capacity ?? 0) > 0
  );
}
