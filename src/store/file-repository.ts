/**
 * The Repository (and the BlobStore, file-blob-store.ts) over lowdb and plain files in the data dir:
 *   accounts.json                         accounts and key hashes (small; one lowdb file)
 *   dashboard.json                        sign-in data (credentials.ts)
 *   webhooks.json                         endpoints, secrets, events and deliveries (webhook-file.ts)
 *   <setting>.json                        settings (settings-file.ts)
 *   generations/<account_id>/<id>.json    one file per generation, with the webhook events of its transitions
 *   audio/<account_id>/<id>.wav|.mid      rendered files, beside the JSON and never inside it
 *   quarantine/<account_id>/<id>.json     generation files found damaged at open, moved aside
 *   server.lock                           who owns the dir (see lock.ts)
 * Every write is crash-safe (atomic-file.ts). Reads are served from memory, loaded once at open.
 */
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { access, constants, mkdir, open as openFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Low } from 'lowdb';
import { hashSecret, newAccountId, newApiKey, newGenerationId, newKeyId, safeEqual } from '../ids.ts';
import { isPlanName, quotaMonth } from '../domain/plans.ts';
import { assertQuotaRoom, batchLead, createOne } from './batch-rules.ts';
import { AtomicJsonFile, CoalescingWriter, sweepTempFiles, type OpenFile } from './atomic-file.ts';
import { CredentialStore } from './credentials.ts';
import { DiskState } from './disk-state.ts';
import { StoreClosedError, DataDirLockLostError } from './errors.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { FileTransaction, embedEvents, type StagedWrites } from './file-transaction.ts';
import { AccountGenerations, newestFirst } from './generation-index.ts';
import { GenerationWatchers } from './generation-watchers.ts';
import {
  isDeleted,
  loadGenerationFiles,
  type DeletedGeneration,
  type IdempotencyRecord,
  type StoredEvent,
  type StoredGeneration,
} from './generation-files.ts';
import { acquireLock, readLiveLock, type DataDirLock, type LockOwner } from './lock.ts';
import type { GenerationPatch, Repository, Transaction, CreateGenerationOptions, ListOptions } from './repository.ts';
import { SettingsFile } from './settings-file.ts';
import { STYLE_FILE, StyleFile } from './style-file.ts';
import { recordOfArrays, type Problem } from './shape.ts';
import { RETAIN_MS, WEBHOOK_FILE, WebhookFile } from './webhook-file.ts';
import type { WebhookDelivery, WebhookEvent } from '../domain/webhooks/types.ts';
import { IdempotencyConflictError, NothingToReplayError, NotFoundError } from '../domain/errors.ts';
import type { Account, ApiKey, Generation, NewGeneration, PlanName } from '../domain/model.ts';
import { storageBytesOf } from '../domain/generations/storage-budget.ts';

export interface OpenStoreOptions {
  dataDir: string;
  /** Who takes the data-dir lock: the server, or the CLI writing while no server runs. */
  owner?: LockOwner;
  /** Source of "now" for created_at and quota months. */
  clock?: () => Date;
  /** Where to report files that could not be loaded. */
  warn?: (message: string) => void;
  /** How every write opens its temp file (tests put a full disk here). @default node:fs/promises open */
  open?: OpenFile;
}

interface AccountsData {
  accounts: Account[];
  keys: ApiKey[];
}

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** last_used_at is a convenience: batching it saves a disk write per request. */
const TOUCH_FLUSH_MS = 10_000;

interface PendingIdempotency extends IdempotencyRecord {
  generationId: string;
  createdAt: number;
  persisted: Promise<void>;
}

const copy = <T extends object>(record: T): T => ({ ...record });

/** Opens the data dir: its lock, its records (the Repository) and its audio (`blobs`, the BlobStore). */
export async function openStore(options: OpenStoreOptions): Promise<FileRepository> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireLock(dataDir, options.owner ?? 'server');
  try {
    const store = new FileRepository(
      dataDir,
      lock,
      options.clock ?? (() => new Date()),
      options.open,
      options.warn ?? (() => undefined),
    );
    await store.load();
    return store;
  } catch (error) {
    lock.release();
    throw error;
  }
}

export class FileRepository implements Repository {
  readonly dataDir: string;
  /** The data dir's audio, sharing its lock and its full-disk state. */
  readonly blobs: FileBlobStore;
  readonly settings: SettingsFile;
  readonly #lock: DataDirLock;
  readonly #clock: () => Date;
  readonly #warn: (message: string) => void;
  readonly #disk: DiskState;
  readonly #writer: CoalescingWriter;
  readonly #db: Low<AccountsData>;
  // Set by load(), before openStore() hands the repository out. Plain fields, not getters: tests wrap it in a Proxy.
  credentials!: CredentialStore;
  webhooks!: WebhookFile;
  styles!: StyleFile;

  readonly #accounts = new Map<string, Account>();
  readonly #keys = new Map<string, ApiKey>();
  readonly #keysByHash = new Map<string, ApiKey>();

  readonly #generations = new Map<string, Generation>();
  readonly #byAccount = new Map<string, AccountGenerations>();
  readonly #unfinished = new Set<Generation>();
  /** account + "\n" + key -> the first generation made with it, in creation order (for pruning). */
  readonly #idempotency = new Map<string, PendingIdempotency>();
  /** generation id -> its idempotency record, rewritten with every update of the generation. */
  readonly #idempotencyOf = new Map<string, IdempotencyRecord>();
  /** generation id -> the webhook events of its transitions, rewritten with every update of the generation. */
  readonly #eventsOf = new Map<string, StoredEvent[]>();
  /** Transactions run one at a time: the file store's isolation. */
  #transactions: Promise<unknown> = Promise.resolve();
  readonly #knownDirs = new Set<string>();
  readonly #watchers = new GenerationWatchers();

  #touchTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    dataDir: string,
    lock: DataDirLock,
    clock: () => Date,
    open: OpenFile | undefined,
    warn: (message: string) => void,
  ) {
    this.dataDir = dataDir;
    this.#lock = lock;
    this.#clock = clock;
    this.#warn = warn;
    // Every file this store writes (records, settings and blobs) is opened here, so no write lands after the lock was lost.
    const openChecked: OpenFile = (path, flags, mode) => {
      lock.check();
      return (open ?? openFile)(path, flags, mode);
    };
    this.#disk = new DiskState(dataDir, openChecked);
    this.#writer = new CoalescingWriter({ open: openChecked, onSettled: this.#disk.noteWrite });
    this.blobs = new FileBlobStore({
      root: dataDir,
      realRoot: realpathSync(dataDir),
      open: openChecked,
      onWrite: this.#disk.noteWrite,
      beforeChange: () => this.#assertWritable(),
    });
    this.settings = new SettingsFile(dataDir, this.#writer);
    const file = new AtomicJsonFile<AccountsData>(join(dataDir, 'accounts.json'), this.#writer, {
      check: checkAccounts,
    });
    this.#db = new Low<AccountsData>(file, { accounts: [], keys: [] });
  }

  async load(): Promise<void> {
    const warn = this.#warn;
    // Temp files of writes a crash or a full disk cut short: their targets are still whole (generations/ is swept as it loads).
    sweepTempFiles(this.dataDir);
    for (const accountDir of listDirs(join(this.dataDir, 'audio')))
      sweepTempFiles(join(this.dataDir, 'audio', accountDir));
    await this.#db.read();
    for (const account of this.#db.data.accounts) this.#accounts.set(account.id, account);
    for (const key of this.#db.data.keys) {
      this.#keys.set(key.id, key);
      this.#keysByHash.set(key.hash, key);
    }
    this.credentials = new CredentialStore(this.dataDir, this.#writer);
    this.webhooks = await WebhookFile.open(join(this.dataDir, WEBHOOK_FILE), this.#writer);
    this.styles = await StyleFile.open(join(this.dataDir, STYLE_FILE), this.#writer);
    const now = this.#clock().getTime();
    const recentIdempotency: { accountId: string; record: PendingIdempotency }[] = [];
    let adopted = false;
    for (const stored of loadGenerationFiles(
      join(this.dataDir, 'generations'),
      join(this.dataDir, 'quarantine'),
      warn,
    )) {
      if (isDeleted(stored)) {
        this.#accountIndex(stored.account_id).countDeleted(stored);
        continue;
      }
      const { idempotency, webhook_events: events, ...generation } = stored;
      this.#generations.set(generation.id, generation);
      if (events && events.length > 0) {
        this.#eventsOf.set(generation.id, events);
        for (const event of events)
          if (now - Date.parse(event.created_at) < RETAIN_MS)
            adopted = this.webhooks.adopt(...eventAndDeliveries(event)) || adopted;
      }
      this.#accountIndex(generation.account_id).push(generation);
      if (generation.status === 'pending' || generation.status === 'processing') this.#unfinished.add(generation);
      if (idempotency) {
        this.#idempotencyOf.set(generation.id, idempotency);
        const createdAt = Date.parse(generation.created_at);
        if (now - createdAt < IDEMPOTENCY_WINDOW_MS) {
          recentIdempotency.push({
            accountId: generation.account_id,
            record: { ...idempotency, generationId: generation.id, createdAt, persisted: Promise.resolve() },
          });
        }
      }
    }
    for (const index of this.#byAccount.values()) index.sortAfterLoad();
    recentIdempotency.sort((a, b) => a.record.createdAt - b.record.createdAt);
    for (const { accountId, record } of recentIdempotency) {
      this.#idempotency.set(idempotencyKey(accountId, record.key), record);
    }
    // Events committed with their transitions that webhooks.json missed (a crash between the two writes).
    if (adopted) await this.webhooks.save();
  }

  // Accounts and keys

  async createAccount(input: { email?: string | null; name?: string | null; plan: PlanName }): Promise<Account> {
    this.#assertWritable();
    if (!isPlanName(input.plan)) throw new TypeError(`Unknown plan "${String(input.plan)}".`);
    const account: Account = {
      id: newAccountId(),
      email: input.email ?? null,
      name: input.name ?? null,
      plan: input.plan,
      rpm: null,
      monthly: null,
      created_at: this.#clock().toISOString(),
    };
    this.#db.data.accounts.push(account);
    this.#accounts.set(account.id, account);
    await this.#db.write();
    return copy(account);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const account = this.#accounts.get(id);
    return account && copy(account);
  }

  async listAccounts(): Promise<Account[]> {
    return [...this.#accounts.values()].map(copy);
  }

  async updateAccount(
    id: string,
    patch: Partial<Pick<Account, 'email' | 'plan' | 'rpm' | 'monthly'>>,
  ): Promise<Account> {
    this.#assertWritable();
    const account = this.#accounts.get(id);
    if (!account) throw new NotFoundError('account', id);
    if (patch.plan !== undefined && !isPlanName(patch.plan))
      throw new TypeError(`Unknown plan "${String(patch.plan)}".`);
    if (patch.email !== undefined) account.email = patch.email;
    if (patch.plan !== undefined) account.plan = patch.plan;
    if (patch.rpm !== undefined) account.rpm = patch.rpm;
    if (patch.monthly !== undefined) account.monthly = patch.monthly;
    await this.#db.write();
    return copy(account);
  }

  async deleteAccount(id: string): Promise<void> {
    this.#assertWritable();
    if (!this.#accounts.has(id)) throw new NotFoundError('account', id);
    if (this.#db.data.keys.some((k) => k.account_id === id) || (this.#byAccount.get(id)?.size ?? 0) > 0) {
      throw new TypeError(`Account ${id} has keys or generations; only an account with neither can be deleted.`);
    }
    this.#accounts.delete(id);
    this.#db.data.accounts = this.#db.data.accounts.filter((a) => a.id !== id);
    await this.#db.write();
  }

  async createKey(accountId: string, name: string | null = null): Promise<{ key: string; record: ApiKey }> {
    this.#assertWritable();
    if (!this.#accounts.has(accountId)) throw new NotFoundError('account', accountId);
    const { key, prefix, hash } = newApiKey();
    const record: ApiKey = {
      id: newKeyId(),
      account_id: accountId,
      name,
      prefix,
      hash,
      created_at: this.#clock().toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    this.#db.data.keys.push(record);
    this.#keys.set(record.id, record);
    this.#keysByHash.set(hash, record);
    await this.#db.write();
    return { key, record: copy(record) };
  }

  async findKey(secret: string): Promise<ApiKey | undefined> {
    if (typeof secret !== 'string' || secret.length === 0 || secret.length > 256) return undefined;
    const hash = hashSecret(secret);
    const record = this.#keysByHash.get(hash);
    return record && safeEqual(record.hash, hash) ? copy(record) : undefined;
  }

  async listKeys(accountId?: string): Promise<ApiKey[]> {
    return [...this.#keys.values()].filter((key) => accountId === undefined || key.account_id === accountId).map(copy);
  }

  async revokeKey(keyId: string): Promise<ApiKey> {
    this.#assertWritable();
    const key = this.#keys.get(keyId);
    if (!key) throw new NotFoundError('key', keyId);
    key.revoked_at ??= this.#clock().toISOString();
    await this.#db.write();
    return copy(key);
  }

  async touchKey(keyId: string, at: Date): Promise<void> {
    const key = this.#keys.get(keyId);
    if (!key || this.#closed) return;
    key.last_used_at = at.toISOString();
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = null;
      this.#db.write().catch(() => undefined);
    }, TOUCH_FLUSH_MS).unref();
  }

  // Generations

  async createGeneration(
    input: NewGeneration,
    options: CreateGenerationOptions,
  ): Promise<{ generation: Generation; replayed: boolean }> {
    return createOne(this, input, options);
  }

  async createGenerations(
    inputs: readonly NewGeneration[],
    options: CreateGenerationOptions,
  ): Promise<{ generations: Generation[]; replayed: boolean }> {
    this.#assertWritable();
    const first = batchLead(inputs);
    // Everything up to the first await runs as one synchronous step: concurrent creates cannot
    // both see the last free units of quota.
    const now = options.now ?? this.#clock();
    if (!this.#accounts.has(first.account_id)) throw new NotFoundError('account', first.account_id);
    const idem = options.idempotency;
    if (idem) {
      const prior = this.#liveIdempotency(first.account_id, idem.key, now.getTime());
      if (prior) {
        if (prior.bodyHash !== idem.bodyHash) throw new IdempotencyConflictError();
        await prior.persisted;
        const made = this.#generations.get(prior.generationId);
        if (!made)
          throw new Error(`idempotency key ${idem.key} names ${prior.generationId}, which is not in the store`);
        return { generations: this.#batchOf(made), replayed: true };
      }
    }
    if (options.replayOnly) throw new NothingToReplayError();
    const month = quotaMonth(now);
    const index = this.#accountIndex(first.account_id);
    assertQuotaRoom(index.usage(month), inputs.length, options, now);
    const generations = inputs.map(
      (input): Generation => ({
        id: newGenerationId(),
        account_id: input.account_id,
        status: 'processing',
        prompt: input.prompt,
        duration: input.duration,
        style: input.style,
        instrumental: input.instrumental,
        seed: input.seed,
        lyrics: input.lyrics,
        callback_url: input.callback_url,
        created_at: now.toISOString(),
        started_at: null,
        completed_at: null,
        attempts: 0,
        title: null,
        metadata: null,
        files: null,
        error: null,
        quota_month: month,
        request_id: input.request_id ?? null,
        ...(input.encoding ? { encoding: input.encoding } : {}),
        ...(input.stems === true ? { stems: true } : {}),
        ...(input.loop === true ? { loop: true } : {}),
        ...(input.music ? { music: input.music } : {}),
        ...(input.plan ? { plan: input.plan } : {}),
        ...(input.batch ? { batch: input.batch } : {}),
        ...(input.source ? { source: input.source } : {}),
        ...(input.custom_style ? { custom_style: input.custom_style } : {}),
      }),
    );
    for (const generation of generations) {
      this.#generations.set(generation.id, generation);
      index.insert(generation);
      this.#unfinished.add(generation);
    }
    // The key is remembered on the batch's first task; a replay finds the others by their batch id.
    const [lead] = generations;
    if (!lead) throw new Error('batchLead let an empty batch through');
    if (idem) this.#idempotencyOf.set(lead.id, { key: idem.key, bodyHash: idem.bodyHash });
    const persisted = Promise.all(generations.map((generation) => this.#persistGeneration(generation))).then(
      () => undefined,
    );
    if (idem) this.#rememberIdempotency(first.account_id, idem, lead, now.getTime(), persisted);
    try {
      await persisted;
    } catch (error) {
      generations.forEach((generation, i) => {
        this.#forget(generation, i === 0 ? idem?.key : undefined);
      });
      throw error;
    }
    return { generations: generations.map(copy), replayed: false };
  }

  /** A task and the others of its batch, in the batch's order (just the task when it has no batch). */
  #batchOf(generation: Generation): Generation[] {
    const batch = generation.batch;
    if (!batch) return [copy(generation)];
    return [...this.#generations.values()]
      .filter((g) => g.account_id === generation.account_id && g.batch?.id === batch.id)
      .sort((a, b) => (a.batch?.index ?? 0) - (b.batch?.index ?? 0))
      .map(copy);
  }

  async getGeneration(accountId: string, id: string): Promise<Generation | undefined> {
    const generation = this.#generations.get(id);
    return generation && generation.account_id === accountId ? copy(generation) : undefined;
  }

  async listGenerations(accountId: string, options: ListOptions): Promise<{ items: Generation[]; total: number }> {
    const index = this.#byAccount.get(accountId);
    if (!index) return { items: [], total: 0 };
    const { items, total } = options.search
      ? index.search(options.search, options.status, options.offset, options.limit)
      : index.page(options.status, options.offset, options.limit);
    return { items: items.map(copy), total };
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = this.#transactions.then(async () => {
      this.#assertWritable();
      const tx = new FileTransaction({
        account: (id) => this.#accounts.get(id),
        generation: (id) => this.#generations.get(id),
        endpoints: (accountId) => this.webhooks.endpointsOf(accountId),
        eventFor: (generationId, type) => this.webhooks.eventFor(generationId, type),
      });
      const result = await fn(tx);
      await this.#commit(tx.staged());
      return result;
    });
    this.#transactions = run.catch(() => undefined);
    return run;
  }

  watchGeneration(id: string, listener: (generation: Generation | undefined) => void): () => void {
    return this.#watchers.watch(id, listener);
  }

  async deleteGeneration(id: string): Promise<void> {
    this.#assertWritable();
    const generation = this.#generations.get(id);
    if (!generation) throw new NotFoundError('generation', id);
    if (generation.status !== 'completed' && generation.status !== 'failed')
      throw new TypeError(`Generation ${id} is ${generation.status}: only finished generations can be deleted.`);
    const idempotency = this.#idempotencyOf.get(id);
    this.#forget(generation, idempotency?.key, { keepUsage: true });
    const tombstone: DeletedGeneration = {
      id,
      account_id: generation.account_id,
      status: generation.status,
      quota_month: generation.quota_month,
      created_at: generation.created_at,
      deleted_at: this.#clock().toISOString(),
    };
    await this.#writeGenerationFile(generation.account_id, id, () => JSON.stringify(tombstone));
    this.#notify(id, undefined);
  }

  async unfinishedGenerations(): Promise<Generation[]> {
    return [...this.#unfinished].sort((a, b) => newestFirst(b, a)).map(copy);
  }

  async usage(accountId: string, month: string): Promise<number> {
    return this.#byAccount.get(accountId)?.usage(month) ?? 0;
  }

  async storageUsed(accountId: string): Promise<number> {
    return this.#byAccount.get(accountId)?.sumKept(storageBytesOf) ?? 0;
  }

  // Health

  async healthy(): Promise<boolean> {
    try {
      if (this.#closed || readLiveLock(this.dataDir)?.pid !== process.pid) return false;
      await access(this.dataDir, constants.R_OK | constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  canWrite(): Promise<boolean> {
    return this.#disk.canWrite();
  }

  holdsLock(): boolean {
    try {
      this.#lock.check();
      return true;
    } catch (error) {
      if (error instanceof DataDirLockLostError) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#touchTimer) {
      clearTimeout(this.#touchTimer);
      this.#touchTimer = null;
      await this.#db.write().catch(() => undefined);
    }
    await this.#transactions;
    await this.#writer.idle();
    this.#lock.release();
  }

  // Internals

  /**
   * Applies a transaction's writes and commits them: each generation's file holds its new state and the events
   * of its transition, so the two land in one atomic write; webhooks.json, where their deliveries are then kept,
   * follows (and is mended from the generation files at open, should a crash come between). As the store always
   * has, memory shows the change even when its write fails: the task goes on from there, and a restart from disk.
   */
  async #commit(staged: StagedWrites): Promise<void> {
    for (const [id, patch] of staged.generations) this.#apply(id, patch);
    for (const { event, deliveries } of staged.events) {
      this.webhooks.addEvent(event, deliveries);
      this.#eventsOf.set(event.generation_id, embedEvents(this.#eventsOf.get(event.generation_id), event, deliveries));
    }
    for (const { eventId, generationId, transitionAt } of staged.stamps) {
      this.webhooks.setEventTransition(eventId, transitionAt);
      const known = this.#eventsOf.get(generationId)?.find((e) => e.id === eventId);
      if (known) known.transition_at = transitionAt;
    }
    const ids = new Set([
      ...staged.generations.keys(),
      ...staged.events.map((e) => e.event.generation_id),
      ...staged.stamps.map((s) => s.generationId),
    ]);
    // An event of a generation deleted meanwhile has no file to travel in: webhooks.json alone holds it (it is void anyway).
    const touched = [...ids].flatMap((id) => this.#generations.get(id) ?? []);
    try {
      await Promise.all(touched.map((generation) => this.#persistGeneration(generation)));
    } finally {
      // What every reader already sees: a watcher must not wait on a change a failed save did not undo.
      for (const id of staged.generations.keys()) this.#notify(id, this.#generations.get(id));
    }
    if (staged.events.length + staged.stamps.length > 0) {
      await this.webhooks
        .save()
        .catch((error: Error) =>
          this.#warn(
            `Could not save ${WEBHOOK_FILE} (${error.message}); its new events are kept with their generations and recovered at the next start.`,
          ),
        );
    }
  }

  #apply(id: string, patch: GenerationPatch): void {
    const generation = this.#generations.get(id);
    if (!generation) throw new NotFoundError('generation', id);
    this.#accountIndex(generation.account_id).update(generation, patch);
    if (generation.status === 'pending' || generation.status === 'processing') this.#unfinished.add(generation);
    else this.#unfinished.delete(generation);
  }

  #notify(id: string, generation: Generation | undefined): void {
    this.#watchers.notify(id, generation);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError();
  }

  /** Before any change, in memory or on disk: a server that lost the data dir to another changes nothing. */
  #assertWritable(): void {
    this.#assertOpen();
    this.#lock.check();
  }

  #accountIndex(accountId: string): AccountGenerations {
    let index = this.#byAccount.get(accountId);
    if (!index) {
      index = new AccountGenerations();
      this.#byAccount.set(accountId, index);
    }
    return index;
  }

  async #ensureDir(dir: string): Promise<void> {
    if (this.#knownDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.#knownDirs.add(dir);
  }

  async #persistGeneration(generation: Generation): Promise<void> {
    await this.#writeGenerationFile(generation.account_id, generation.id, () => {
      const stored: StoredGeneration = { ...generation };
      const idempotency = this.#idempotencyOf.get(generation.id);
      if (idempotency) stored.idempotency = idempotency;
      // Only those still in the delivery log's retention: an older one is never adopted again at open.
      const cutoff = this.#clock().getTime() - RETAIN_MS;
      const events = this.#eventsOf.get(generation.id)?.filter((e) => Date.parse(e.created_at) >= cutoff);
      if (events && events.length > 0) stored.webhook_events = events;
      return JSON.stringify(stored);
    });
  }

  async #writeGenerationFile(accountId: string, id: string, text: () => string): Promise<void> {
    const path = join(this.dataDir, 'generations', accountId, `${id}.json`);
    await this.#ensureDir(dirname(path));
    await this.#writer.write(path, text);
  }

  #liveIdempotency(accountId: string, key: string, now: number): PendingIdempotency | undefined {
    const record = this.#idempotency.get(idempotencyKey(accountId, key));
    return record && now - record.createdAt < IDEMPOTENCY_WINDOW_MS ? record : undefined;
  }

  #rememberIdempotency(
    accountId: string,
    idem: IdempotencyRecord,
    generation: Generation,
    createdAt: number,
    persisted: Promise<void>,
  ): void {
    persisted.catch(() => undefined);
    const mapKey = idempotencyKey(accountId, idem.key);
    // Re-inserting moves the key to the end, keeping the map in creation order for pruning.
    this.#idempotency.delete(mapKey);
    this.#idempotency.set(mapKey, { ...idem, generationId: generation.id, createdAt, persisted });
    for (const [oldKey, record] of this.#idempotency) {
      if (createdAt - record.createdAt < IDEMPOTENCY_WINDOW_MS) break;
      this.#idempotency.delete(oldKey);
    }
  }

  #forget(
    generation: Generation,
    idempotencyKeyValue: string | undefined,
    options: { keepUsage?: boolean } = {},
  ): void {
    this.#generations.delete(generation.id);
    if (options.keepUsage) this.#accountIndex(generation.account_id).delete(generation);
    else this.#accountIndex(generation.account_id).remove(generation);
    this.#unfinished.delete(generation);
    this.#idempotencyOf.delete(generation.id);
    this.#eventsOf.delete(generation.id);
    if (idempotencyKeyValue !== undefined) {
      const mapKey = idempotencyKey(generation.account_id, idempotencyKeyValue);
      if (this.#idempotency.get(mapKey)?.generationId === generation.id) this.#idempotency.delete(mapKey);
    }
  }
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const checkAccounts = (value: unknown): Problem =>
  recordOfArrays(value, { accounts: ['id', 'plan', 'created_at'], keys: ['id', 'account_id', 'hash', 'created_at'] });

const idempotencyKey = (accountId: string, key: string): string => `${accountId}\n${key}`;

/** An event as its generation's file keeps it, back to the event and its (pending) deliveries. */
function eventAndDeliveries(stored: StoredEvent): [WebhookEvent, WebhookDelivery[]] {
  const { deliveries: targets, ...event } = stored;
  const deliveries = targets.map(
    (target): WebhookDelivery => ({
      ...target,
      event_id: event.id,
      account_id: event.account_id,
      state: 'pending',
      attempts: [],
      round_attempts: 0,
      next_attempt_at: event.created_at,
      created_at: event.created_at,
      updated_at: event.created_at,
    }),
  );
  return [event, deliveries];
}
