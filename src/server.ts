/**
 * The running service: owns the data dir (lock), the render pool, the job queue, the HTTP listener and
 * the admin channel, and takes them down in order. Process concerns (signals, exit codes) stay in the CLI.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createHttpServer } from './http/http-server.ts';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { checkRequest, createFileEncoder, createRenderPool, listStyles, type RenderPool } from '../engine/index.ts';
import { createApp } from './app.ts';
import { Accounts } from './domain/accounts.ts';
import { DownloadSigner } from './domain/download-links.ts';
import { serveAdmin } from './cli/admin-channel.ts';
import { SIGN_IN_LINK_TTL_MS } from './cli/admin-commands.ts';
import { ConfigError, defaultPublicUrl, type Config } from './config.ts';
import { createJobQueue, loadedSpeed } from './jobs/index.ts';
import { openSharedQueue, SharedJobQueue, type SharedQueue } from './jobs/pg/index.ts';
import { createLogger, type Logger } from './log.ts';
import type { OpenFile } from './store/atomic-file.ts';
import { StorageFullError, isStorageFull, type Repository } from './store/index.ts';
import { openBackend } from './backend.ts';
import { GenerationLifecycle } from './domain/generations/lifecycle.ts';
import { openWebhooks } from './domain/webhooks/index.ts';

export interface ServerHandle {
  /** Where the server listens, e.g. http://127.0.0.1:3000 (the real port when PORT=0). */
  url: string;
  publicUrl: string;
  /** Set on a first start with an empty data dir: the local account's key, shown once. */
  firstKey: string | null;
  /** Set with firstKey: a one-time link that signs the local account in to the dashboard. */
  firstSignInUrl: string | null;
  /** Stops accepting, lets renders finish or re-queues them, flushes the store. Safe to call twice. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** Where the log goes. @default JSON lines on stdout at the configured level */
  logger?: Logger;
  /**
   * Where the person starting the server is told where it listens and, on a first start, its key and sign-in
   * link: never the log. @default stderr
   */
  print?: (text: string) => void;
  /** How the store opens the files it writes: a test seam for a full disk. @default node:fs/promises open */
  open?: OpenFile;
}

/** How long an HTTP request in flight may take to finish at shutdown. */
const HTTP_DRAIN_MS = 5_000;

export async function startServer(config: Config, options: StartServerOptions = {}): Promise<ServerHandle> {
  try {
    return await start(config, options);
  } catch (error) {
    throw isStorageFull(error) ? new StorageFullError(config.dataDir) : error;
  }
}

/** The threads the in-process job queue renders on; config.ts allows none only with PostgreSQL's shared queue. */
function localPool(pool: RenderPool | null): RenderPool {
  if (!pool) throw new Error('no render threads (TUNESMITH_WORKERS=0) and no shared job queue to hand renders to');
  return pool;
}

async function start(config: Config, options: StartServerOptions): Promise<ServerHandle> {
  const logger = options.logger ?? createLogger({ level: config.logLevel ?? 'info' });
  const print = options.print ?? ((text: string) => console.error(text));
  // PostgreSQL mode: the job queue is in the database too, and the repository queues each render in the create
  // transaction. The records open first: a database that cannot be reached is their one-sentence error.
  let queue: SharedQueue | null = null;
  const backend = await openBackend(config, {
    logger,
    open: options.open,
    enqueue: config.databaseUrl
      ? (db, generation, rank) => {
          if (!queue) throw new Error('a render was queued before the shared job queue was open');
          return queue.enqueue(db, generation, rank);
        }
      : undefined,
  });
  const { repository: store, blobs, signingSecret } = backend;
  const cleanup: (() => Promise<void>)[] = [() => backend.close()];
  const unwind = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };
  try {
    if (config.databaseUrl) {
      const opened = await openSharedQueue({ ...config, databaseUrl: config.databaseUrl }, logger);
      queue = opened;
      cleanup.push(() => opened.close());
      await opened.requeueOrphans();
    }
    // TUNESMITH_WORKERS=0 (PostgreSQL mode only, see config.ts): an API-only node, no render threads.
    const pool = config.workers > 0 ? createRenderPool({ workers: config.workers }) : null;
    if (pool) cleanup.push(() => pool.close());
    const encoder = createFileEncoder();
    cleanup.push(() => encoder.close());
    // Before the queue: its restart recovery may already cause webhook events, which wake the worker.
    // With PostgreSQL, workers elsewhere record events too: their commits wake every API node's sender (NOTIFY on the
    // repository's listening connection), and a slow poll is the floor for a notification lost with a dropped connection.
    const webhooks = openWebhooks({
      repository: store,
      allowPrivate: config.webhookAllowPrivate ?? false,
      log: (line) => logger.warn({ component: 'webhooks' }, line),
      ...(queue ? { pollMs: (config.webhookPollSeconds ?? 15) * 1000 } : {}),
    });
    cleanup.push(() => webhooks.close());
    const stopWaking = store.watchOtherNodes?.(() => webhooks.wake());
    if (stopWaking) cleanup.push(async () => stopWaking());
    const lifecycle = new GenerationLifecycle({ repository: store, onEvent: webhooks.wake });
    const jobs =
      queue && backend.database
        ? new SharedJobQueue({ repository: store, lifecycle, db: backend.database, boss: queue.boss })
        : await createJobQueue({
            repository: store,
            blobs,
            lifecycle,
            pool: localPool(pool),
            logger,
            // Until a render is measured, estimates follow how busy the machine is (render-speed.ts loadedSpeed).
            coldSpeed: (rendering) =>
              loadedSpeed({
                load: loadavg()[0] ?? 0,
                cores: availableParallelism(),
                workers: config.workers,
                rendering,
              }),
          });
    cleanup.push(() => jobs.close());
    const renderWorker =
      queue && pool
        ? await queue.work({
            repository: store,
            blobs,
            lifecycle,
            pool,
            logger,
            ...(backend.database ? { db: backend.database } : {}),
          })
        : null;
    if (renderWorker) cleanup.push(() => renderWorker.close());
    cleanup.push(() => backend.flushLimits());

    // The first lyrics check parses the pronouncing dictionary (~0.2 s of blocked event loop): pay it here,
    // before listening, not in the first request with lyrics and every request queued behind it.
    checkRequest({ prompt: 'a song', duration: 60, style: null, instrumental: false, seed: 0, lyrics: 'la' });

    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
    // Requests Node itself refuses (bad framing, huge headers, an odd Expect) still get our error shape.
    const http = createHttpServer(config);
    http.on('request', (req, res) => handler(req, res));
    await listen(http, config.port, config.host);
    cleanup.push(() => closeHttp(http));
    const { port } = http.address() as AddressInfo;
    const url = defaultPublicUrl(config.host, port);
    // PORT=0 lets the system pick: the download links must carry the port it picked.
    const publicUrl =
      config.port === 0 && config.publicUrl === defaultPublicUrl(config.host, 0) ? url : config.publicUrl;
    // For the CLI's sign-in links while no server runs: where this server was last reached.
    await store.settings.put('last-public-url', { public_url: publicUrl });
    // One signer for the API's links and the webhooks' events: same secret, public URL and lifetime.
    const signer = new DownloadSigner({ secret: signingSecret, publicUrl, ttlSeconds: config.downloadTtlSeconds });
    const shuttingDown = new AbortController();
    const app = createApp({
      repository: store,
      blobs,
      jobs,
      engine: { listStyles, checkRequest },
      encoder,
      config: { ...config, port, publicUrl, signingSecret },
      webhooks: webhooks.service,
      signer,
      logger,
      shutdown: shuttingDown.signal,
      accountLimiter: backend.limiter,
    });
    handler = app.callback();
    webhooks.start(signer);

    // The admin channel lets CLI commands reach a data dir this server holds locked; a PostgreSQL node holds no
    // lock (the CLI writes to the database itself), and several nodes may share one data dir for their audio.
    const admin = queue
      ? { close: async () => undefined }
      : await serveAdmin({ repository: store, publicUrl }, config.dataDir);
    cleanup.push(() => admin.close());
    // Only once nothing else can fail: a key made by a start that then failed would never be shown.
    const first = await backend.once(() => provisionFirstStart(store));
    const firstKey = first?.key ?? null;
    const firstSignInUrl = first ? `${publicUrl}/signin/${first.signInToken}` : null;

    if (first && firstSignInUrl) print(firstStartBanner(publicUrl, first.key, firstSignInUrl));
    // Last, so whoever waits for this line (people, scripts, tests) has everything above it.
    // Shown to whoever started the server whatever the log level (scripts wait for it); the log gets its own line.
    const threads = pool?.size ?? 0;
    logger.info(
      { url, data_dir: config.dataDir, database: config.databaseUrl ? backend.where : undefined, workers: threads },
      'server started',
    );
    const rendering = pool ? `${threads} render thread(s)` : 'API only: `tunesmith worker` processes render its tasks';
    print(`Tunesmith listening on ${url} (${backend.where}, ${rendering})`);

    let closing: Promise<void> | null = null;
    return {
      url,
      publicUrl,
      firstKey,
      firstSignInUrl,
      close() {
        closing ??= (async () => {
          // Order matters: no new requests, then no new renders (their last events recorded), then
          // no more webhook sends (the unsent wait in the outbox for the next start), threads, files.
          shuttingDown.abort();
          await Promise.all([closeHttp(http), admin.close(), jobs.close(), renderWorker?.close()]);
          await queue?.close();
          await backend.flushLimits();
          await webhooks.close();
          await pool?.close();
          await encoder.close();
          await backend.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * An empty data dir gets a local Developer account and one key, so a newcomer can curl at once, and a
 * one-time link that signs that account in to the dashboard.
 */
async function provisionFirstStart(store: Repository): Promise<{ key: string; signInToken: string } | null> {
  if ((await store.listAccounts()).length > 0) return null;
  const { account, key } = await new Accounts({ repository: store, now: () => new Date() }).open(
    'developer',
    { name: 'local' },
    'first start',
  );
  const signInToken = await store.credentials.issueSignInToken(account.id, new Date(), SIGN_IN_LINK_TTL_MS);
  return { key, signInToken };
}

function firstStartBanner(publicUrl: string, key: string, signInUrl: string): string {
  return `First start: created a local Developer account and this API key (shown only once; keep it):

  ${key}

Open the dashboard signed in as this account (one-time link, valid 7 days):

  ${signInUrl}

Try it:

  curl -s -X POST ${publicUrl}/v1/generate \\
    -H "Authorization: Bearer ${key}" \\
    -H "Content-Type: application/json" \\
    -d '{"prompt": "a calm lofi beat with soft piano", "duration": 30}'

then wait on the returned Location (answers when the status changes, repeat until completed):
  curl -s "${publicUrl}/v1/generation/<id>?wait=60" -H "Authorization: Bearer ${key}"
More keys: npm run -s cli -- keys create --plan developer
`;
}

/** Listening failures are configuration problems: say which variable to change. */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(
        'PORT',
        `port ${port} on ${host} is already in use. Stop the other program or choose another PORT (0 picks a free one).`,
      );
    case 'EACCES':
      return new ConfigError('PORT', `no permission to listen on port ${port}. Choose a port above 1023.`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError('HOST', `${host} is not an address of this machine.`);
    default:
      return error;
  }
}

function listen(http: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once('error', (error) => reject(listenError(error, port, host)));
    http.listen(port, host, () => {
      http.removeAllListeners('error');
      resolve();
    });
  });
}

async function closeHttp(http: Server): Promise<void> {
  if (!http.listening) return;
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  const drained = await Promise.race([closed.then(() => true), delay(HTTP_DRAIN_MS, false, { ref: false })]);
  if (!drained) http.closeAllConnections();
  await closed;
}
