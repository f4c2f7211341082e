import type { CustomStyle, MusicalFields, PlanSection } from '../../engine/index.ts';

/**
 * The domain's model: accounts, their keys, and generations. The store keeps them behind src/store/repository.ts
 * (records) and src/store/blob-store.ts (audio bytes); nothing outside src/store/ knows how.
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

/**
 * What a track's storage is reckoned from (domain/generations/storage-budget.ts): its length, audio options,
 * stems and, once rendered, its sections. A generation is one; so is a request.
 */
export type TrackSize = Pick<Generation, 'duration' | 'encoding' | 'stems'> & {
  files?: Pick<GenerationFiles, 'stems'> | null;
  metadata?: { sections?: unknown } | null;
};

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
  /** The account's own style `style` names, as it was when the task was made (absent: a built-in style or none). */
  custom_style?: CustomStyle;
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
  | 'custom_style'
>;

/** A password as kept: its scrypt hash, never the password. */
export interface PasswordHash {
  algorithm: 'scrypt';
  /** scrypt cost parameters, kept per hash so they can be raised without breaking old ones. */
  N: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}
