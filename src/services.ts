/**
 * What createApp is handed (AppDeps) and what it builds from them for the routes and the dashboard (Services): the
 * domain's modules and the repository, blob store and queue they work on. The HTTP layer itself (src/http/) takes
 * only the narrow parts it needs.
 */
import type { FileEncoder, GenerationRequest, StyleInfo } from '../engine/index.ts';
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { JobQueue } from './jobs/types.ts';
import type { Accounts } from './domain/accounts.ts';
import type { CustomStyles } from './domain/custom-styles.ts';
import type { Generations } from './domain/generations/generations.ts';
import type { BlobStore } from './store/blob-store.ts';
import type { Repository } from './store/repository.ts';
import type { WebhookService } from './domain/webhooks/service.ts';
import type { DownloadSigner } from './domain/download-links.ts';
import type { RequestLimiter } from './domain/token-bucket.ts';

/** Everything the app needs, handed in by whoever builds the app (server.ts, tests, the bench). */
export interface AppDeps {
  repository: Repository;
  /** Where the rendered files are. */
  blobs: BlobStore;
  jobs: JobQueue;
  /** The engine's cheap, synchronous checks (rendering goes through jobs). checkRequest throws engine errors. */
  engine: { listStyles(): StyleInfo[]; checkRequest(request: GenerationRequest): void };
  /** Makes MP3, Opus and FLAC from the stored WAV on first download; without it only stored files are served. */
  encoder?: Pick<FileEncoder, 'encode'>;
  config: Config;
  /** The clock: injectable so rate-limit and expiry tests need no waiting. */
  now?: () => Date;
  /** Endpoints, secrets and the delivery log; without it the /v1/webhooks routes answer 503. */
  webhooks?: WebhookService;
  /** Signs download links; built from the config when not given. server.ts shares one with the webhooks' events. */
  signer?: DownloadSigner;
  /** Request lines and request errors. @default a logger that writes nothing */
  logger?: Logger;
  /** Aborted when the server starts to shut down: long polls answer at once instead of holding the drain. */
  shutdown?: AbortSignal;
  /** Requests per minute per account. server.ts hands in one kept in the data dir. @default an in-memory one */
  accountLimiter?: RequestLimiter;
}

/** AppDeps with the clock resolved, plus what createApp builds once from the config. */
export interface Services extends Omit<AppDeps, 'now' | 'signer' | 'logger' | 'accountLimiter'> {
  now: () => Date;
  signer: DownloadSigner;
  /** The generation lifecycle's door for handlers: create, find, cancel, delete, present, files. */
  generations: Generations;
  /** The accounts' own styles: made, listed, deleted, and found for a generate request. */
  styles: CustomStyles;
  /** Accounts, their keys, sign-up and plans. */
  accounts: Accounts;
  /** Requests per minute per account: one bucket for the API and the dashboard's playground. */
  accountLimiter: RequestLimiter;
}
