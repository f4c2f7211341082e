/**
 * The per-account rate-limit buckets, kept in the data dir so a restart does not hand every account a fresh
 * minute. Only buckets not yet full are written, at most once a second (a request never waits for the disk),
 * and once more at shutdown. A crash loses at most that second; a damaged file only costs the limits' state.
 */
import { readFile } from 'node:fs/promises';
import type { Store } from '../store/types.ts';
import { TokenBucketLimiter, type Bucket } from './token-bucket.ts';

export const RATE_LIMITS_FILE = 'rate-limits.json';
const WRITE_EVERY_MS = 1_000;

export interface PersistentLimiter {
  limiter: TokenBucketLimiter;
  /** Writes the state now if it changed since the last write. */
  flush(): Promise<void>;
}

export async function openPersistentLimiter(
  store: Store,
  options: { windowMs: number; now: () => number; warn: (line: string) => void },
): Promise<PersistentLimiter> {
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const bytes = Buffer.from(JSON.stringify(Object.fromEntries(limiter.spent(options.now()))));
    writing = writing.then(() => store.writeFile(RATE_LIMITS_FILE, bytes)).catch((error: Error) => options.warn(`Could not save the rate limits: ${error.message}`));
    return writing;
  };
  const limiter = new TokenBucketLimiter({
    windowMs: options.windowMs,
    buckets: await readBuckets(store, options.warn),
    onTake: () => {
      timer ??= setTimeout(flush, WRITE_EVERY_MS).unref();
    },
  });
  return { limiter, flush: () => (timer === undefined ? writing : flush()) };
}

async function readBuckets(store: Store, warn: (line: string) => void): Promise<[string, Bucket][]> {
  let text: string;
  try {
    text = await readFile(store.resolveFile(RATE_LIMITS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const entries = Object.entries(JSON.parse(text) as Record<string, unknown>);
    if (entries.every(([, bucket]) => isBucket(bucket))) return entries as [string, Bucket][];
  } catch {
    // Reported below, like any other shape.
  }
  warn(`${store.resolveFile(RATE_LIMITS_FILE)} is damaged; every account starts with a full rate limit.`);
  return [];
}

function isBucket(value: unknown): value is Bucket {
  const bucket = value as Partial<Bucket> | null;
  return typeof bucket === 'object' && bucket !== null && [bucket.tokens, bucket.at, bucket.capacity].every((n) => typeof n === 'number' && Number.isFinite(n)) && bucket.capacity! > 0;
}
