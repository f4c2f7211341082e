import type { CustomStyles } from '../domain/custom-styles.ts';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { ParameterizedContext, Middleware } from 'koa';
import type { FileEncoder, GenerationRequest, StyleInfo } from '../../engine/index.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { JobQueue } from '../jobs/types.ts';
import type { Accounts } from '../domain/accounts.ts';
import type { Generations } from '../domain/generations/generations.ts';
import type { BlobStore } from '../store/blob-store.ts';
import type { Repository } from '../store/repository.ts';
import type { Account, ApiKey } from '../domain/model.ts';
import type { WebhookService } from '../domain/webhooks/service.ts';
import type { DownloadSigner } from '../domain/download-links.ts';
import type { RequestLimiter } from './token-bucket.ts';

/** Everything the HTTP layer needs, handed in by whoever builds the app (server.ts, tests, the bench). */
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

export interface AppState {
  requestId: string;
  /** Set by the auth middleware on every /v1 route. */
  account?: Account;
  apiKey?: ApiKey;
  /** The signed-in dashboard account, for the log (API requests have `account`). */
  accountId?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppMiddleware = Middleware<AppState>;
export type RouteContext = RouterContext<AppState>;
export type RouteHandler = RouterMiddleware<AppState>;

/** The state of an authenticated /v1 request. */
export interface AuthedState extends AppState {
  account: Account;
  apiKey: ApiKey;
}

export function authed(ctx: AppContext): AuthedState {
  const { account, apiKey } = ctx.state;
  // The auth middleware runs before every /v1 route; reaching this without it is a wiring bug.
  if (!account || !apiKey) throw new Error('authed() used on a route without the auth middleware');
  return ctx.state as AuthedState;
}
