import type { MusicalFields, PlanSection } from '../../engine/index.ts';

/**
 * The records the service keeps. The interfaces over them are in repository.ts (records) and blob-store.ts
 * (audio bytes); the files implementation lives beside them, and nothing outside src/store/ knows the layout on disk.
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

/**
 * The stored files of a finished generation: a format's name (a key of download_urls) -> the key of its bytes in
 * the blob store, and each stem's role -> its key. Records from before the other formats have wav and midi only.
 */
export interface GenerationFiles {
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

/** Every blob key a record lists, stems included: what a delete removes. */
export function storedFiles(files: GenerationFiles | null): string[] {
  if (!files) return [];
  const { stems, ...formats } = files;
  return [
    ...Object.values(formats).filter((path): path is string => typeof path === 'string'),
    ...Object.values(stems ?? {}),
  ];
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
  /** The request's composition plan (`sections`) as given, when any was; the plan used is in metadata.plan. */
  plan?: PlanSection[];
  /** One of `variations` tasks made by one request: the batch's id and this task's place in it (absent: made alone). */
  batch?: { id: string; index: number; size: number };
  /** Made from another generation (POST …/extend or …/remix): which, how, and for a remix the section redone (absent: made from a prompt). */
  source?: GenerationSource;
}

export interface GenerationSource {
  id: string;
  operation: 'extend' | 'remix';
  /** The source's section index a remix redid. */
  section?: number;
}

/** What a caller supplies for a new task; the store fills in status, timestamps and the rest. */
export type NewGeneration = Pick<
  Generation,
  | 'account_id'
  | 'prompt'
  | 'duration'
  | 'style'
  | 'instrumental'
  | 'seed'
  | 'lyrics'
  | 'callback_url'
  | 'request_id'
  | 'encoding'
  | 'stems'
  | 'loop'
  | 'music'
  | 'plan'
  | 'batch'
  | 'source'
>;

export interface CreateGenerationOptions {
  /** Monthly generations allowed for the account (null = unlimited). Checked and reserved atomically. */
  monthlyQuota: number | null;
  /** When given, the same key and body hash within 24 h return the first generation instead of a new one. */
  idempotency?: { key: string; bodyHash: string } | undefined;
  now?: Date;
  /** The account's plan rank (src/plans.ts), for a queue that is told of the task in the same transaction. */
  rank?: number | undefined;
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
    super(
      `The monthly quota of ${limit} generations is used up; it resets on ${resetsAt.toISOString().slice(0, 10)} at ${resetsAt.toISOString().slice(11, 16)} UTC.`,
    );
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
  constructor(
    readonly what: string,
    readonly id: string,
  ) {
    super(`No ${what} with id ${id}.`);
  }
}

/** Thrown at open when another live server owns the data dir. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError' as const;
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data dir ${dataDir} is in use by another Tunesmith server (pid ${pid}). Stop it, or set TUNESMITH_DATA_DIR to another directory.`,
    );
  }
}

/**
 * This server no longer holds its data dir: the lock file was replaced by another process (most often a
 * second server started after server.lock was deleted by hand). Its writes would overwrite the other's.
 */
export class DataDirLockLostError extends Error {
  override name = 'DataDirLockLostError' as const;
  constructor(readonly dataDir: string) {
    super(
      `This server no longer holds the lock on its data dir ${dataDir} (server.lock was replaced by another process): it refuses every change. Stop the other server or this one, then restart one.`,
    );
  }
}
