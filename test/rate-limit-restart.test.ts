/** The per-account rate limit is kept in the data dir: a restart, clean or not, does not hand out a fresh minute. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { openPersistentLimiter } from '../src/store/rate-limit-file.ts';
import { openStore } from '../src/store/index.ts';
/** Where the file store keeps the rate-limits setting. */
const RATE_LIMITS_FILE = 'rate-limits.json';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
const SPENT = 55;

/** Sends `requests` requests; resolves with when the last one was sent and the remaining the server answered it. */
async function spend(url: string, key: string, requests: number): Promise<{ lastSentAt: number; remaining: number }> {
  let lastSentAt = 0;
  let remaining = Number.NaN;
  for (let i = 0; i < requests; i++) {
    lastSentAt = Date.now();
    const res = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    remaining = Number(res.headers.get('ratelimit-remaining'));
  }
  return { lastSentAt, remaining };
}

async function savedBuckets(dataDir: string): Promise<Record<string, { tokens: number; at: number }>> {
  const text = await readFile(join(dataDir, RATE_LIMITS_FILE), 'utf8').catch(() => '{}');
  return JSON.parse(text) as Record<string, { tokens: number; at: number }>;
}

/** Whether the file holds a bucket taken from at or after `sentAt`: one written after the last request. */
async function writtenSince(dataDir: string, sentAt: number): Promise<true | undefined> {
  return Object.values(await savedBuckets(dataDir)).some((bucket) => bucket.at >= sentAt) || undefined;
}

/**
 * Checks that the file holds what the server last answered, then stops its refill (its time an hour ahead: a
 * bucket refills only from its own time on), so what the next start answers depends on the file alone, not on
 * how long the restart took on a loaded machine.
 */
async function savedAsAnswered(t: ExecutionContext, dataDir: string, remaining: number): Promise<void> {
  const buckets = await savedBuckets(dataDir);
  const saved = Object.values(buckets);
  t.is(saved.length, 1);
  t.is(Math.floor(saved[0]!.tokens), remaining, 'the bucket on disk is the one the last request left');
  for (const bucket of saved) bucket.at = Date.now() + 3_600_000;
  await writeFile(join(dataDir, RATE_LIMITS_FILE), JSON.stringify(buckets));
}

async function remainingAfterOneMore(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return Number(res.headers.get('ratelimit-remaining'));
}

test('after a clean restart on the same data dir an account has only what it had left', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  const { remaining } = await spend(first.url, key, SPENT);
  await first.kill('SIGTERM');
  await savedAsAnswered(t, dataDir, remaining);
  const second = await startServerProcess(t, dataDir);
  // A fresh minute would answer 59.
  t.is(await remainingAfterOneMore(second.url, key), remaining - 1);
});

test('after a kill -9 the limits written a moment before it are kept', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  const { lastSentAt, remaining } = await spend(first.url, key, SPENT);
  // Written coalesced once a second: kill only once the last request's take is on disk.
  await eventually(() => writtenSince(dataDir, lastSentAt), 10_000, 'the rate limits to be written');
  await first.kill('SIGKILL');
  await savedAsAnswered(t, dataDir, remaining);
  const second = await startServerProcess(t, dataDir);
  t.is(await remainingAfterOneMore(second.url, key), remaining - 1);
});

test('a damaged rate-limit file is reported and every account starts with a full bucket', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-limits-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  await writeFile(join(dataDir, RATE_LIMITS_FILE), '{"acc_1": {"tokens": 0, "at"');
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const warnings: string[] = [];
  const { limiter } = await openPersistentLimiter(store.settings, {
    windowMs: 60_000,
    now: Date.now,
    warn: (line) => warnings.push(line),
  });
  t.is(limiter.take('acc_1', 10, Date.now()).remaining, 9);
  t.regex(warnings.join('\n'), /rate-limits\.json is damaged/);
});
