/** The per-account rate limit is kept in the data dir: a restart, clean or not, does not hand out a fresh minute. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { openPersistentLimiter } from '../src/http/rate-limit-file.ts';
import { openStore } from '../src/store/index.ts';
/** Where the file store keeps the rate-limits setting. */
const RATE_LIMITS_FILE = 'rate-limits.json';
import { eventually, startServerProcess, tempDataDir } from './helpers/process.ts';

const firstKey = (output: string): string => /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
/** A fresh Developer bucket answers 59 after the first request; at one token a second, a restart may give back a few. */
const FRESH_REMAINING = 59;
const SPENT = 30;

async function spend(url: string, key: string, requests: number): Promise<void> {
  for (let i = 0; i < requests; i++) await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
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
  await first.kill('SIGTERM');
  const second = await startServerProcess(t, dataDir);
  t.true((await remainingAfterOneMore(second.url, key)) < FRESH_REMAINING - SPENT + 10);
});

test('after a kill -9 the limits written a moment before it are kept', async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await startServerProcess(t, dataDir);
  const key = firstKey(first.output());
  await spend(first.url, key, SPENT);
  await eventually(() => existsSync(join(dataDir, RATE_LIMITS_FILE)) || undefined, 5_000, 'the rate limits to be written');
  await first.kill('SIGKILL');
  const second = await startServerProcess(t, dataDir);
  t.true((await remainingAfterOneMore(second.url, key)) < FRESH_REMAINING - SPENT + 10);
});

test('a damaged rate-limit file is reported and every account starts with a full bucket', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-limits-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  await writeFile(join(dataDir, RATE_LIMITS_FILE), '{"acc_1": {"tokens": 0, "at"');
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  const warnings: string[] = [];
  const { limiter } = await openPersistentLimiter(store.settings, { windowMs: 60_000, now: Date.now, warn: (line) => warnings.push(line) });
  t.is(limiter.take('acc_1', 10, Date.now()).remaining, 9);
  t.regex(warnings.join('\n'), /rate-limits\.json is damaged/);
});
