/** The per-account rate limit is kept in the data dir: a restart, clean or not, does not hand out a fresh minute. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { openPersistentLimiter } from '../src/store/rate-limit-file.ts';
import { openStore } from '../src/store/index.ts';
/** Where the file store keeps the rate-limits setting. */
const RATE_LIMITS_FILE = 'rate-limits.json';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
/** A fresh Developer bucket answers 59 after the first request. */
const FRESH_REMAINING = 59;
const SPENT = 55;

/**
 * What may be left after the restart: what was left, plus the Developer refill of one token a second for the
 * time the restart took (seconds on a loaded machine), plus a little. A restart that forgot the bucket answers 59, which this bound excludes for any restart under 50 s.
 */
const mostLeft = (spentAt: number): number => FRESH_REMAINING - SPENT + Math.ceil((Date.now() - spentAt) / 1000) + 3;

/** Sends `requests` requests; resolves with when the last one was sent. */
async function spend(url: string, key: string, requests: number): Promise<number> {
  let lastSentAt = 0;
  for (let i = 0; i < requests; i++) {
    lastSentAt = Date.now();
    await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  }
  return lastSentAt;
}

/** Whether the file holds a bucket taken from at or after `sentAt`: one written after the last request. */
async function writtenSince(dataDir: string, sentAt: number): Promise<true | undefined> {
  const text = await readFile(join(dataDir, RATE_LIMITS_FILE), 'utf8').catch(() => '{}');
  const buckets = Object.values(JSON.parse(text) as Record<string, { at: number }>);
  return buckets.some((bucket) => bucket.at >= sentAt) || undefined;
}

async function remainingAfterOneMore(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return Number(res.headers.get('ratelimit-remaining'));
}

test('after a clean restart on the same data dir an account has only what it had left', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  await spend(first.url, key, SPENT);
  const spentAt = Date.now();
  await first.kill('SIGTERM');
  const second = await startServerProcess(t, dataDir);
  const remaining = await remainingAfterOneMore(second.url, key);
  t.true(remaining <= mostLeft(spentAt), `${remaining} left, at most ${mostLeft(spentAt)} expected`);
});

test('after a kill -9 the limits written a moment before it are kept', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  const lastSentAt = await spend(first.url, key, SPENT);
  const spentAt = Date.now();
  // Written coalesced once a second: kill only once the last request's take is on disk.
  await eventually(() => writtenSince(dataDir, lastSentAt), 10_000, 'the rate limits to be written');
  await first.kill('SIGKILL');
  const second = await startServerProcess(t, dataDir);
  const remaining = await remainingAfterOneMore(second.url, key);
  t.true(remaining <= mostLeft(spentAt), `${remaining} left, at most ${mostLeft(spentAt)} expected`);
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
