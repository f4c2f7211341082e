/**
 * The one door to the service's records. Everything is async, takes and returns plain copies, and says nothing
 * of how records are kept, so a database can implement it as well as the data dir's files (file-repository.ts)
 * do. Callers never see a path, a lowdb object or a shared mutable record.
 */
import type { Credential, Session } from './credentials.ts';
import type { Account, ApiKey, Generation, GenerationStatus, NewGeneration, PlanName } from '../domain/model.ts';
import type { CustomStyleRecord } from '../domain/custom-styles.ts';
import type {
  AccountSecret,
  DeliveryState,
  EventType,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from '../domain/webhooks/types.ts';

/** The fields of a generation that change after its creation. */
export type GenerationPatch = Partial<Omit<Generation, 'id' | 'account_id' | 'created_at' | 'quota_month'>>;

export interface Repository {
  createAccount(input: { email?: string | null; name?: string | null; plan: PlanName }): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  updateAccount(id: string, patch: Partial<Pick<Account, 'email' | 'plan' | 'rpm' | 'monthly'>>): Promise<Account>;
  /** Removes an account that has no keys and no generations yet: undoes a sign-up that failed half-way. */
  deleteAccount(id: string): Promise<void>;

  /** Returns the plaintext key once; only its hash is kept. */
  createKey(accountId: string, name?: string | null): Promise<{ key: string; record: ApiKey }>;
  /** Looks a presented key up by hash (constant-time compare); undefined when unknown. Revoked keys are returned with revoked_at set. */
  findKey(secret: string): Promise<ApiKey | undefined>;
  listKeys(accountId?: string): Promise<ApiKey[]>;
  revokeKey(keyId: string): Promise<ApiKey>;
  /** Records last use; may be persisted lazily (it is not worth a write per request). */
  touchKey(keyId: string, at: Date): Promise<void>;

  /** Checks the quota, reserves one unit and persists the new task (status processing), atomically. */
  createGeneration(
    input: NewGeneration,
    options: CreateGenerationOptions,
  ): Promise<{ generation: Generation; replayed: boolean }>;
  /**
   * Several tasks from one request (`variations`), all or none: the quota must take every one. An Idempotency-Key
   * replays the whole batch (tasks carry `batch`, so a replay after a restart finds them all).
   */
  createGenerations(
    inputs: readonly NewGeneration[],
    options: CreateGenerationOptions,
  ): Promise<{ generations: Generation[]; replayed: boolean }>;
  getGeneration(accountId: string, id: string): Promise<Generation | undefined>;
  /** Newest first, ties broken by id. */
  listGenerations(accountId: string, options: ListOptions): Promise<{ items: Generation[]; total: number }>;
  /**
   * Removes a finished (completed or failed) generation's record: it is gone from every read. Its quota unit
   * stays spent. Its files are the blob store's; the caller removes them first.
   */
  deleteGeneration(id: string): Promise<void>;
  /** Tasks not yet terminal (processing or pending), oldest first: what a restart must resume. */
  unfinishedGenerations(): Promise<Generation[]>;
  /**
   * Bytes the account's tracks take (every one kept but the failed), as storageBytesOf reckons them
   * (src/domain/generations/storage-budget.ts): the storage budget asks it before every create, so it is kept as a
   * running total, not summed over the history.
   */
  storageUsed(accountId: string): Promise<number>;
  /** Generations counted against the account's quota for a month ("YYYY-MM"). */
  usage(accountId: string, month: string): Promise<number>;
  /**
   * Calls `listener` after each committed change of the generation, with the generation as it now is
   * (undefined once it is deleted). Returns the function that stops the calls.
   */
  watchGeneration(id: string, listener: (generation: Generation | undefined) => void): () => void;
  /**
   * Where other processes change the records too (PostgreSQL): calls `listener` after each change another node
   * commits. Returns the function that stops the calls. Absent where this process is the only writer.
   */
  watchOtherNodes?(listener: () => void): () => void;

  /**
   * Runs `fn` as one unit: what it writes through `tx` is committed together or not at all, and no other
   * transaction sees it half done. A generation's transition and the webhook event it causes go through here.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;

  readonly credentials: CredentialRecords;
  readonly webhooks: WebhookRecords;
  readonly styles: StyleRecords;
  readonly settings: Settings;

  /** True while the store can be read and written (the file store: it still holds its data dir). */
  healthy(): Promise<boolean>;
  /** What /healthz calls the store when healthy() is false: "the store (its PostgreSQL database)" where the records are there. @default "the store" */
  readonly storeName?: string;
  /**
   * False for good once another process took the storage over (the file store: server.lock was replaced), when
   * every change is refused with DataDirLockLostError. A store that several nodes share by design always holds it.
   */
  holdsLock(): boolean;
  /**
   * False while the storage is full: since a write failed for want of space, until one lands (the file store
   * tries a one-byte write to find out, only while it is false).
   */
  canWrite(): Promise<boolean>;
  /** Flushes pending writes and lets go of the storage. */
  close(): Promise<void>;
}

/** What a transaction may read and write. Reads see the transaction's own writes. */
export interface Transaction {
  getAccount(id: string): Promise<Account | undefined>;
  getGeneration(id: string): Promise<Generation | undefined>;
  /** A change to status failed gives the quota unit back. */
  updateGeneration(id: string, patch: GenerationPatch): Promise<Generation>;
  /** The account's endpoints (enabled or not). */
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  /** The event a generation's transition of this type already caused, if any. */
  eventFor(generationId: string, type: EventType): Promise<WebhookEvent | undefined>;
  addEvent(event: WebhookEvent, deliveries: WebhookDelivery[]): Promise<void>;
  /** The same transition again (a re-render after a crash): the event keeps its id and announces the newest state. */
  setEventTransition(event: Pick<WebhookEvent, 'id' | 'generation_id'>, transitionAt: string | null): Promise<void>;
}

export interface CredentialRecords {
  findByEmail(email: string): Promise<Credential | undefined>;
  forAccount(accountId: string): Promise<Credential | undefined>;
  /** Reserves an email for a sign-up in progress (EmailTakenError when it is taken); the returned function releases it. */
  claimEmail(email: string): Promise<() => void>;
  addCredential(credential: Credential): Promise<void>;
  createSession(accountId: string, now: Date, ttlMs: number): Promise<Session>;
  /** The live session with this id, or undefined when unknown, ended or expired. */
  findSession(id: string, now: Date): Promise<Session | undefined>;
  endSession(id: string): Promise<void>;
  /** A one-time sign-in token for an account. */
  issueSignInToken(accountId: string, now: Date, ttlMs: number): Promise<string>;
  /** Uses up a sign-in token: its account id the first time, undefined ever after (or once expired). */
  redeemSignInToken(token: string, now: Date): Promise<string | undefined>;
}

export interface DeliveryQuery {
  limit: number;
  offset: number;
  state?: DeliveryState | undefined;
  endpointId?: string | undefined;
}

export interface WebhookRecords {
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  getEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  addEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  updateEndpoint(id: string, patch: Partial<Omit<WebhookEndpoint, 'id' | 'account_id'>>): Promise<WebhookEndpoint>;
  deleteEndpoint(id: string): Promise<void>;

  getSecret(accountId: string): Promise<AccountSecret | undefined>;
  /** Replaces the account's secret (a rotation). */
  putSecret(secret: AccountSecret): Promise<void>;
  /** Stores `secret` unless the account has one already; resolves with the one the account has now. */
  addSecretIfAbsent(secret: AccountSecret): Promise<AccountSecret>;

  getEvent(id: string): Promise<WebhookEvent | undefined>;
  getDelivery(id: string): Promise<WebhookDelivery | undefined>;
  /** An account's deliveries, newest first. */
  listDeliveries(accountId: string, query: DeliveryQuery): Promise<{ items: WebhookDelivery[]; total: number }>;
  /** Every pending delivery, oldest first (the longest waiting go first when room is short). */
  pendingDeliveries(): Promise<WebhookDelivery[]>;
  /**
   * Takes the lease on a pending delivery for `owner` until `until`, so one node sends it and no other meanwhile:
   * resolves with the delivery when it is pending and no one else holds an unexpired lease on it, undefined
   * otherwise. The lease ends with the holder's next updateDelivery (its attempt logged) or at `until`.
   */
  claimDelivery(id: string, owner: string, until: Date, now: Date): Promise<WebhookDelivery | undefined>;
  /** Also ends the delivery's lease, if any. */
  updateDelivery(
    id: string,
    patch: Partial<Omit<WebhookDelivery, 'id' | 'event_id' | 'account_id'>>,
  ): Promise<WebhookDelivery>;
  /** Drops settled deliveries older than the retention, and events left without deliveries. */
  prune(now: Date): Promise<void>;
}

/** Each account's own styles (POST /v1/styles). */
export interface StyleRecords {
  /** The account's styles, by name. */
  list(accountId: string): Promise<CustomStyleRecord[]>;
  get(accountId: string, name: string): Promise<CustomStyleRecord | undefined>;
  /** StyleNameTakenError when the account has a style of that name. */
  add(style: CustomStyleRecord): Promise<void>;
  /** False when the account had no style of that name. */
  delete(accountId: string, name: string): Promise<boolean>;
}

/** The names of the small documents the service keeps beside its records. */
export type SettingName = 'render-speed' | 'rate-limits' | 'last-public-url';

export interface Settings {
  /** The value last put, or undefined when there is none. A stored value that cannot be read is a DamagedSettingError. */
  get(name: SettingName): Promise<unknown>;
  put(name: SettingName, value: unknown): Promise<void>;
}

export interface CreateGenerationOptions {
  /** Monthly generations allowed for the account (null = unlimited). Checked and reserved atomically. */
  monthlyQuota: number | null;
  /** When given, the same key and body hash within 24 h return the first generation instead of a new one. */
  idempotency?: { key: string; bodyHash: string } | undefined;
  /**
   * Only replay: the earlier answer under `idempotency` if there is one, else NothingToReplayError and nothing is
   * made (an account at its bound of unfinished tasks still has its retries answered).
   */
  replayOnly?: boolean;
  now?: Date;
  /** The account's plan rank (src/domain/plans.ts), for a queue that is told of the task in the same transaction. */
  rank?: number | undefined;
}

export interface ListOptions {
  status?: GenerationStatus | undefined;
  /** Only generations whose prompt contains this text, regardless of case. */
  search?: string | undefined;
  limit: number;
  offset: number;
}
