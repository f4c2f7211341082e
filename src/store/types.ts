import type { MusicalFields } from '../../engine/index.ts';
import type { OpenFile } from './atomic-file.ts';

/**
 * The store's records and the interface the rest of the service uses. The lowdb implementation
 * lives beside this file; nothing outside src/store/ knows how records are laid out on disk.
 */

export type PlanName = 'starter' | 'developer' | 'enterprise';

export type GenerationStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface Account {
  id: string;
  email: string | null;
  name: string | null;
  plan: PlanName;
  /** Enterprise's custom figures (null = the plan default). */
  rpm: number | null;
  monthly: number | null;
  created_at: string;
}

export interface ApiKey {
  id: string;
  account_id: string;
  name: string | null;
  /** The readable start of the key ("ts_live_ab12…"), safe to show. */
  prefix: string;
  /** sha256 hex of the whole key. The key itself is never stored. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface GenerationFiles {
  /** Paths relative to the data dir. Records from before the other formats have wav and midi only. */
  wav: string;
  midi: string;
  mp3?: string;
  opus?: string;
  flac?: string;
  /** Only for sung tracks. */
  lrc?: string;
  vtt?: string;
  /** When stems were asked for: the WAV of each role that plays (drums, bass, chords, pad, arp, lead, vocal, texture). */
  stems?: Record<string, string>;
}

/** Every file a record lists, stems included: what a delete removes. */
export function storedFiles(files: GenerationFiles | null): string[] {
  if (!files) return [];
  const { stems, ...formats } = files;
  return [...Object.values(formats).filter((path): path is string => typeof path === 'string'), ...Object.values(stems ?? {})];
}

/** The request's audio options: the WAV/FLAC sample rate and bit depth, and an MP3 constant bitrate (null: VBR). */
export interface EncodingSettings {
  sample_rate: 44100 | 48000;
  bit_depth: 16 | 24;
  bitrate: number | null;
}

export interface Generation {
  id: string;
  account_id: string;
  status: GenerationStatus;
  prompt: string;
  duration: number;
  style: string | null;
  instrumental: boolean;
  seed: number;
  lyrics: string | null;
  callback_url: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Render attempts so far (3 failed attempts make the task failed). */
  attempts: number;
  title: string | null;
  /** The engine's TrackMetadata, as plain JSON. */
  metadata: Record<string, unknown> | null;
  files: GenerationFiles | null;
  /** Absent on records from before these options: the defaults (44.1 kHz, 16 bits, VBR). */
  encoding?: EncodingSettings;
  error: { code: string; message: string } | null;
  /** The calendar month (UTC, "YYYY-MM") whose quota this task counts against. */
  quota_month: string;
  /** The X-Request-Id of the request that created it, so its log lines can be followed (absent on older records). */
  request_id?: string | null;
  /** Asked for one WAV per role beside the mix (absent: no). */
  stems?: boolean;
  /** Asked for a seamless loop of whole bars (absent: no). */
  loop?: boolean;
  /** The request's musical fields (bpm, key, time signature ...), when any was given. */
  music?: MusicalFields;
}

/** What a caller supplies for a new task; the store fills in status, timestamps and the rest. */
export type NewGeneration = Pick<
  Generation,
  'account_id' | 'prompt' | 'duration' | 'style' | 'instrumental' | 'seed' | 'lyrics' | 'callback_url' | 'request_id' | 'encoding' | 'stems' | 'loop' | 'music'
>;

export interface CreateGenerationOptions {
  /** Monthly generations allowed for the account (null = unlimited). Checked and reserved atomically. */
  monthlyQuota: number | null;
  /** When given, the same key and body hash within 24 h return the first generation instead of a new one. */
  idempotency?: { key: string; bodyHash: string } | undefined;
  now?: Date;
}

export interface ListOptions {
  status?: GenerationStatus | undefined;
  /** Only generations whose prompt contains this text, regardless of case. */
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** Thrown by createGeneration when the month's quota is spent. */
export class QuotaExceededError extends Error {
  override name = 'QuotaExceededError' as const;
  constructor(
    readonly limit: number,
    readonly resetsAt: Date,
  ) {
    super(`The monthly quota of ${limit} generations is used up; it resets on ${resetsAt.toISOString().slice(0, 10)} at ${resetsAt.toISOString().slice(11, 16)} UTC.`);
  }
}

/** Thrown when an Idempotency-Key is reused with a different body. */
export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError' as const;
  constructor() {
    super('This Idempotency-Key was already used with a different request body. Use a new key for a new request.');
  }
}

/** Thrown when a record to change does not exist. */
export class NotFoundError extends Error {
  override name = 'NotFoundError' as const;
  constructor(readonly what: string, readonly id: string) {
    super(`No ${what} with id ${id}.`);
  }
}

/** Thrown at open when another live server owns the data dir. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError' as const;
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`The data dir ${dataDir} is in use by another Tunesmith server (pid ${pid}). Stop it, or set TUNESMITH_DATA_DIR to another directory.`);
  }
}

/**
 * This server no longer holds its data dir: the lock file was replaced by another process (most often a
 * second server started after server.lock was deleted by hand). Its writes would overwrite the other's.
 */
export class DataDirLockLostError extends Error {
  override name = 'DataDirLockLostError' as const;
  constructor(readonly dataDir: string) {
    super(`This server no longer holds the lock on its data dir ${dataDir} (server.lock was replaced by another process): it refuses every change. Stop the other server or this one, then restart one.`);
  }
}

export interface Store {
  readonly dataDir: string;

  createAccount(input: { email?: string | null; name?: string | null; plan: PlanName }): Promise<Account>;
  getAccount(id: string): Account | undefined;
  listAccounts(): Account[];
  updateAccount(id: string, patch: Partial<Pick<Account, 'email' | 'plan' | 'rpm' | 'monthly'>>): Promise<Account>;
  /** Removes an account that has no keys and no generations yet: undoes a sign-up that failed half-way. */
  deleteAccount(id: string): Promise<void>;

  /** Returns the plaintext key once; only its hash is kept. */
  createKey(accountId: string, name?: string | null): Promise<{ key: string; record: ApiKey }>;
  /** Looks a presented key up by hash (constant-time compare); undefined when unknown. Revoked keys are returned with revoked_at set. */
  findKey(secret: string): ApiKey | undefined;
  listKeys(accountId?: string): ApiKey[];
  revokeKey(keyId: string): Promise<ApiKey>;
  /** Records last use; may be persisted lazily (it is not worth a disk write per request). */
  touchKey(keyId: string, at: Date): void;

  /** Atomically checks the quota, reserves one unit and persists the new task (status processing). */
  createGeneration(input: NewGeneration, options: CreateGenerationOptions): Promise<{ generation: Generation; replayed: boolean }>;
  getGeneration(accountId: string, id: string): Generation | undefined;
  /** Newest first, ties broken by id. */
  listGenerations(accountId: string, options: ListOptions): { items: Generation[]; total: number };
  /** Persists a change; a change to status failed refunds the quota unit. */
  updateGeneration(id: string, patch: Partial<Omit<Generation, 'id' | 'account_id' | 'created_at' | 'quota_month'>>): Promise<Generation>;
  /**
   * Removes a finished (completed or failed) generation and its files: it is gone from every read. Its quota
   * unit stays spent, across restarts too.
   */
  deleteGeneration(id: string): Promise<void>;
  /**
   * Calls `listener` after each change of the generation, with the generation as it now is (undefined once it
   * is deleted), once its save has landed or failed. Returns the function that stops the calls.
   */
  watchGeneration(id: string, listener: (generation: Generation | undefined) => void): () => void;
  /** Tasks not yet terminal (processing or pending), oldest first: what a restart must resume. */
  unfinishedGenerations(): Generation[];
  /** Generations counted against the account's quota for a month ("YYYY-MM"). */
  usage(accountId: string, month: string): number;

  /** Absolute path of a file inside the data dir; throws if the relative path would escape it. */
  resolveFile(relativePath: string): string;
  /** Writes a file atomically inside the data dir (temp file, fsync, rename). */
  writeFile(relativePath: string, bytes: Uint8Array): Promise<void>;
  /**
   * False while the data dir's disk is full: since a write failed for want of space, until one lands (this
   * tries a one-byte write to find out, only while it is false).
   */
  canWrite(): Promise<boolean>;
  /**
   * Whether this process still holds the data dir (lock.ts checks the lock file now). False for good once
   * another process took it: every change is then refused with DataDirLockLostError.
   */
  holdsLock(): boolean;
  /** How every file in the data dir is opened for writing: the lock is checked first. For the files other modules keep there. */
  readonly openForWrite: OpenFile;

  /** Flushes pending writes and releases the data-dir lock. */
  close(): Promise<void>;
}
