/**
 * The service's configuration, read from the environment once at start. Nothing else reads
 * process.env. A bad value stops the start with a ConfigError that names the variable and what it accepts.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './log.ts';
import { parseStorageUrl, type S3Settings, type StorageLocation } from './store/storage-location.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of download URLs, no trailing slash, e.g. http://127.0.0.1:3000 */
  publicUrl: string;
  /** Render threads in this process; 0 (PostgreSQL mode only) makes `serve` an API-only node. */
  workers: number;
  /**
   * TUNESMITH_JOB_LEASE_SECONDS (PostgreSQL mode): how long a render's worker may go silent before its task is
   * given to another worker; a dead worker's task runs again within about 1.5 leases. @default 60
   */
  jobLeaseSeconds?: number;
  /**
   * TUNESMITH_WEBHOOK_POLL_SECONDS (PostgreSQL mode): how often an API node looks for webhook deliveries even
   * when nothing woke it. Other nodes' events wake it at their commit (LISTEN/NOTIFY); this is the floor for a
   * notification lost with a dropped connection. @default 15
   */
  webhookPollSeconds?: number;
  /**
   * TUNESMITH_MAX_TASKS_PER_ACCOUNT: tasks one account may have waiting or rendering at once; past it a request is
   * a 429 too_many_tasks with Retry-After, so one account cannot fill the queue every other account waits in.
   * @default four per render thread, at least 8
   */
  maxTasksPerAccount?: number;
  /**
   * TUNESMITH_DISK_BUDGET_GB: storage one account's tracks may take, in gigabytes (10^9 bytes), reckoned from each
   * track's length, rate, depth and stems (src/domain/generations/storage-budget.ts); a task past it is a 402
   * storage_budget_exceeded until the account deletes tracks. 0: no budget. @default 50
   */
  diskBudgetBytes?: number | undefined;
  /** Lifetime of signed download URLs in seconds (24 h). */
  downloadTtlSeconds: number;
  /** Secret for signing download URLs: generated once and kept in the data dir. */
  signingSecret?: string;
  /** TUNESMITH_WEBHOOK_ALLOW_PRIVATE=1: webhooks may go to loopback and private addresses (a laptop setup, tests). */
  webhookAllowPrivate?: boolean;
  /** TUNESMITH_LOG_LEVEL: the least severe log lines written. @default 'info' */
  logLevel?: LogLevel;
  /** TUNESMITH_REQUEST_TIMEOUT: seconds a request (headers and body) has to arrive whole. @default 30 */
  requestTimeoutSeconds?: number;
  /** TUNESMITH_IDLE_TIMEOUT: seconds a connection may move no bytes either way (a stalled upload or download). @default 30 */
  idleTimeoutSeconds?: number;
  /** TUNESMITH_STORAGE_URL: where the audio lives. @default the data dir */
  storage?: StorageLocation | undefined;
  /** How to reach the store when `storage` is s3://, from the standard AWS variables. */
  s3?: S3Settings;
  /**
   * TUNESMITH_DATABASE_URL (postgres://…): keep the records in PostgreSQL, shared by every node that names the
   * same database, instead of the data dir's files. Unset: the files, exactly as before.
   */
  databaseUrl?: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError' as const;
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

/** Unset and empty both mean "use the default", as shells make the two hard to tell apart. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

/** TUNESMITH_DISK_BUDGET_GB in bytes; undefined when 0 (no budget). */
function diskBudget(env: Env): number | undefined {
  const gigabytes = integer(env, 'TUNESMITH_DISK_BUDGET_GB', DEFAULT_DISK_BUDGET_GB, 0, 1_000_000);
  return gigabytes === 0 ? undefined : gigabytes * 1e9;
}

/**
 * Far above what anyone keeps by hand (3,000 one-minute tracks with every format), far below what one key could
 * make in a month of 180 s tracks with stems at 48 kHz 24-bit (about 130 GB).
 */
const DEFAULT_DISK_BUDGET_GB = 50;

function flag(env: Env, name: string): boolean {
  const raw = read(env, name);
  if (raw === undefined || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(name, `expected 1 or 0, got "${raw}".`);
}

function logLevel(env: Env): LogLevel {
  const raw = read(env, 'TUNESMITH_LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new ConfigError('TUNESMITH_LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${raw}".`);
  return raw as LogLevel;
}

function host(env: Env): string {
  const value = read(env, 'HOST') ?? '127.0.0.1';
  if (/[\s/]/.test(value)) throw new ConfigError('HOST', `expected a host name or IP address, got "${value}".`);
  return value;
}

function databaseUrl(env: Env): string | undefined {
  const raw = read(env, 'TUNESMITH_DATABASE_URL');
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  // The URL holds a password: it is never echoed back in the error.
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.pathname.length <= 1) {
    throw new ConfigError(
      'TUNESMITH_DATABASE_URL',
      'expected a PostgreSQL URL naming a database, like postgres://user:password@host:5432/tunesmith.',
    );
  }
  return raw;
}

/** The URL clients can reach: a wildcard bind address is not one, so it maps to the loopback name. */
function defaultPublicUrl(bindHost: string, port: number): string {
  const reachable = bindHost === '0.0.0.0' ? '127.0.0.1' : bindHost === '::' ? 'localhost' : bindHost;
  const hostPart = reachable.includes(':') ? `[${reachable}]` : reachable;
  return `http://${hostPart}:${port}`;
}

function publicUrl(env: Env, fallback: string): string {
  const raw = read(env, 'TUNESMITH_PUBLIC_URL');
  if (raw === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('TUNESMITH_PUBLIC_URL', `expected an absolute http:// or https:// URL, got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('TUNESMITH_PUBLIC_URL', `expected an http:// or https:// URL, got "${raw}".`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'TUNESMITH_PUBLIC_URL',
      `expected a base URL without credentials, query or fragment, got "${raw}".`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

function storage(env: Env): StorageLocation | undefined {
  const raw = read(env, 'TUNESMITH_STORAGE_URL');
  if (raw === undefined) return undefined;
  try {
    return parseStorageUrl(raw);
  } catch (error) {
    throw new ConfigError('TUNESMITH_STORAGE_URL', (error as Error).message);
  }
}

/** The SDK would read these itself; reading them here keeps one place that says what the service was told. */
function s3Settings(env: Env): S3Settings {
  const endpoint = read(env, 'AWS_ENDPOINT_URL_S3') ?? read(env, 'AWS_ENDPOINT_URL');
  if (endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(endpoint)) {
    throw new ConfigError(
      env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL',
      `expected an http:// or https:// URL, got "${endpoint}".`,
    );
  }
  const pathStyle = read(env, 'TUNESMITH_S3_PATH_STYLE');
  return {
    endpoint,
    region: read(env, 'AWS_REGION') ?? read(env, 'AWS_DEFAULT_REGION') ?? 'us-east-1',
    // Self-hosted stores (MinIO, Garage, SeaweedFS, Ceph) want the bucket in the path; AWS itself, the host.
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : flag(env, 'TUNESMITH_S3_PATH_STYLE'),
  };
}

/**
 * Render threads. 0 is an API-only node, which only PostgreSQL mode has: there `tunesmith worker` processes take
 * its tasks, while with the data dir no other process can (the server holds its lock), so every task would wait
 * for ever: refused at start rather than discovered as a stuck queue.
 */
function workers(env: Env, shared: boolean): number {
  if (!shared && read(env, 'TUNESMITH_WORKERS') === '0') {
    throw new ConfigError(
      'TUNESMITH_WORKERS',
      '0 (an API-only node) needs TUNESMITH_DATABASE_URL, where `tunesmith worker` processes render the tasks; with the data dir nothing else could render them. Set 1 or more, or set TUNESMITH_DATABASE_URL.',
    );
  }
  return integer(env, 'TUNESMITH_WORKERS', availableParallelism(), shared ? 0 : 1, 64);
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const bindHost = host(env);
  const database = databaseUrl(env);
  const threads = workers(env, database !== undefined);
  return Object.freeze({
    port,
    host: bindHost,
    dataDir: resolve(read(env, 'TUNESMITH_DATA_DIR') ?? './data'),
    publicUrl: publicUrl(env, defaultPublicUrl(bindHost, port)),
    workers: threads,
    maxTasksPerAccount: integer(env, 'TUNESMITH_MAX_TASKS_PER_ACCOUNT', Math.max(8, 4 * threads), 1, 100_000),
    diskBudgetBytes: diskBudget(env),
    jobLeaseSeconds: integer(env, 'TUNESMITH_JOB_LEASE_SECONDS', 60, 10, 3600),
    webhookPollSeconds: integer(env, 'TUNESMITH_WEBHOOK_POLL_SECONDS', 15, 1, 86_400),
    downloadTtlSeconds: integer(env, 'TUNESMITH_DOWNLOAD_TTL', 86_400, 60, 30 * 86_400),
    webhookAllowPrivate: flag(env, 'TUNESMITH_WEBHOOK_ALLOW_PRIVATE'),
    logLevel: logLevel(env),
    requestTimeoutSeconds: integer(env, 'TUNESMITH_REQUEST_TIMEOUT', 30, 1, 3600),
    idleTimeoutSeconds: integer(env, 'TUNESMITH_IDLE_TIMEOUT', 30, 1, 3600),
    storage: storage(env),
    s3: s3Settings(env),
    databaseUrl: database,
  });
}

/** The default public URL for a bound address: used when PORT=0 lets the system pick the port. */
export { defaultPublicUrl };
