/**
 * Where the server keeps its state, chosen by the config: the data dir's files (the default: one server owns
 * the dir through its lock) or PostgreSQL (TUNESMITH_DATABASE_URL: any number of nodes share the database and
 * take no lock). Each gives the records, the audio, the signing secret and the per-account rate limiter.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from './config.ts';
import { openPersistentLimiter } from './store/rate-limit-file.ts';
import { PostgresLimiter } from './store/postgres/rate-limit.ts';
import { ACCOUNT_WINDOW_MS, type RequestLimiter } from './domain/token-bucket.ts';
import type { Logger } from './log.ts';
import { loadSharedSigningSecret, loadSigningSecret } from './secrets.ts';
import type { OpenFile } from './store/atomic-file.ts';
import { FileBlobStore } from './store/file-blob-store.ts';
import {
  DataDirLockedError,
  openStore,
  readLiveLock,
  type BlobStore,
  type FileRepository,
  type Repository,
} from './store/index.ts';
import { openBlobStore } from './store/open-blob-store.ts';
import {
  databaseName,
  openPostgresRepository,
  type EnqueueInTransaction,
  type Queryable,
} from './store/postgres/index.ts';

export interface Backend {
  repository: Repository;
  blobs: BlobStore;
  signingSecret: string;
  /** Requests per minute per account, shared by every node that shares the records. */
  limiter: RequestLimiter;
  /** Saves what the limiter keeps only in memory (the file mode's buckets). */
  flushLimits(): Promise<void>;
  /** PostgreSQL mode: the records' pool, where the job queue's tables are too (its live view reads them). */
  database?: Queryable;
  /** For the start line and the log: where the records are. */
  where: string;
  /**
   * Runs `fn` so that no other node runs it at the same time (the first start's provisioning: two nodes starting
   * on an empty database make one local account, not two). One process owns the files, so there it just runs.
   */
  once<T>(fn: () => Promise<T>): Promise<T>;
  /** Lets go of the records (after flushLimits). */
  close(): Promise<void>;
}

export interface OpenBackendOptions {
  logger: Logger;
  /** How the file store opens the files it writes: a test seam for a full disk. */
  open?: OpenFile | undefined;
  /** PostgreSQL mode: the job queue's enqueue inside each create transaction. */
  enqueue?: EnqueueInTransaction | undefined;
}

/** How often a running file server looks at its lock between writes. */
const LOCK_CHECK_MS = 2_000;
/** A CLI command holds the lock for a moment only: a starting server waits for it. */
const CLI_LOCK_WAIT_MS = 10_000;
/** The advisory lock of Backend.once() in PostgreSQL (any fixed number, other than the migrations'). */
const ONCE_LOCK = 7_405_112_015;

export async function openBackend(config: Config, options: OpenBackendOptions): Promise<Backend> {
  const records = config.databaseUrl
    ? await openPostgresBackend(config.databaseUrl, config.dataDir, options)
    : await openFileBackend(config.dataDir, options);
  // The audio goes where TUNESMITH_STORAGE_URL says (a shared volume, a bucket), else to the data dir.
  try {
    const storage = await openBlobStore({
      location: config.storage,
      s3: config.s3 ?? { region: 'us-east-1', forcePathStyle: false },
      dataDir: config.dataDir,
      dataDirBlobs: records.blobs,
    });
    return {
      ...records,
      blobs: storage.blobs,
      // A file server says "data dir X" as it always has; a database node says where its audio is.
      where:
        config.storage === undefined && !config.databaseUrl
          ? records.where
          : `${records.where}, audio in ${storage.description}`,
      close: async () => {
        await storage.close();
        await records.close();
      },
    };
  } catch (error) {
    await records.close().catch(() => undefined);
    throw error;
  }
}

async function openPostgresBackend(url: string, dataDir: string, options: OpenBackendOptions): Promise<Backend> {
  const repository = await openPostgresRepository({
    url,
    warn: (line) => options.logger.warn(line),
    enqueue: options.enqueue,
  });
  try {
    const signingSecret = await loadSharedSigningSecret(repository);
    // Audio stays in this node's data dir until a shared storage URL says otherwise; the dir takes no lock here.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const blobs = new FileBlobStore({ root: dataDir, realRoot: realpathSync(dataDir) });
    return {
      repository,
      blobs,
      signingSecret,
      limiter: new PostgresLimiter(repository.pool, ACCOUNT_WINDOW_MS),
      database: repository.pool,
      flushLimits: async () => undefined,
      where: `PostgreSQL database ${databaseName(url)}`,
      once: (fn) => repository.exclusively(ONCE_LOCK, fn),
      close: () => repository.close(),
    };
  } catch (error) {
    await repository.close().catch(() => undefined);
    throw error;
  }
}

async function openFileBackend(dataDir: string, options: OpenBackendOptions): Promise<Backend> {
  const warn = (line: string) => options.logger.warn(line);
  const store = await openStoreForServer(dataDir, warn, options.open);
  const lockWatch = watchLock(store, options.logger);
  try {
    const signingSecret = await loadSigningSecret(dataDir);
    const limits = await openPersistentLimiter(store.settings, { windowMs: ACCOUNT_WINDOW_MS, now: Date.now, warn });
    return {
      repository: store,
      blobs: store.blobs,
      signingSecret,
      limiter: limits.limiter,
      flushLimits: () => limits.flush(),
      where: `data dir ${dataDir}`,
      once: (fn) => fn(),
      close: async () => {
        clearInterval(lockWatch);
        await store.close();
      },
    };
  } catch (error) {
    clearInterval(lockWatch);
    await store.close().catch(() => undefined);
    throw error;
  }
}

async function openStoreForServer(
  dataDir: string,
  log: (line: string) => void,
  open: OpenFile | undefined,
): Promise<FileRepository> {
  const deadline = Date.now() + CLI_LOCK_WAIT_MS;
  for (;;) {
    try {
      return await openStore({ dataDir, owner: 'server', warn: log, open });
    } catch (error) {
      if (!(error instanceof DataDirLockedError) || readLiveLock(dataDir)?.owner !== 'cli' || Date.now() > deadline)
        throw error;
      await delay(100);
    }
  }
}

/**
 * Every write checks the lock already; this check between writes is for the operator: it says so in the log
 * as soon as another process took the data dir, even on a server that happens to write nothing meanwhile.
 */
function watchLock(store: FileRepository, logger: Logger): NodeJS.Timeout {
  const timer = setInterval(() => {
    let holds: boolean;
    try {
      holds = store.holdsLock();
    } catch (error) {
      logger.warn({ err: error }, 'could not check the data-dir lock');
      return;
    }
    if (holds) return;
    clearInterval(timer);
    logger.error(
      { data_dir: store.dataDir },
      'lost the data-dir lock: server.lock was replaced by another process, so this server refuses every change from now on. Stop one of the two servers, then restart.',
    );
  }, LOCK_CHECK_MS);
  timer.unref();
  return timer;
}
