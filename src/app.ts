/**
 * Builds the Koa app from its dependencies. No listening, no process concerns (server.ts owns those),
 * no module state: two apps in one process share nothing.
 */
import { CustomStyles } from './domain/custom-styles.ts';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import { authenticate } from './http/auth.ts';
import { errorHandler } from './http/error-handler.ts';
import { storageProblem } from './store/errors.ts';
import { MethodNotAllowedError, MissingHostError, RouteNotFoundError } from './http/errors.ts';
import { rateLimit } from './http/rate-limit.ts';
import { requestId } from './http/request-id.ts';
import { logAppErrors, logRequests } from './http/request-log.ts';
import { silentLogger } from './log.ts';
import { DownloadSigner } from './domain/download-links.ts';
import type { AppDeps, Services } from './services.ts';
import type { AppMiddleware, AppState } from './http/types.ts';
import { buildRouter } from './routes/index.ts';
import { createDashboard } from './dashboard/index.ts';
import { ACCOUNT_WINDOW_MS, TokenBucketLimiter } from './domain/token-bucket.ts';
import { Generations } from './domain/generations/generations.ts';
import { Accounts } from './domain/accounts.ts';

export type { AppDeps } from './services.ts';

export function createApp(deps: AppDeps): Koa<AppState> {
  const { signer: givenSigner, logger = silentLogger(), accountLimiter, ...rest } = deps;
  // Without a kept secret, links and dashboard sessions still work but die with the process.
  const signingSecret = deps.config.signingSecret ?? randomBytes(32).toString('hex');
  const now = deps.now ?? (() => new Date());
  const signer =
    givenSigner ??
    new DownloadSigner({
      secret: signingSecret,
      publicUrl: deps.config.publicUrl,
      ttlSeconds: deps.config.downloadTtlSeconds,
    });
  const webhooks = deps.webhooks;
  const generations = new Generations({
    repository: deps.repository,
    blobs: deps.blobs,
    jobs: deps.jobs,
    checkRequest: (request) => deps.engine.checkRequest(request),
    maxUnfinishedPerAccount: deps.config.maxTasksPerAccount,
    storageBudgetPerAccount: deps.config.diskBudgetBytes,
    checkCallbackUrl: webhooks && ((url, param) => webhooks.checkUrl(url, param)),
    signer,
    now,
    encoder: deps.encoder,
    logger,
  });
  const services: Services = {
    ...rest,
    now,
    signer,
    generations,
    styles: new CustomStyles(rest.repository, () => rest.engine.listStyles(), now),
    accounts: new Accounts({ repository: deps.repository, now }),
    accountLimiter: accountLimiter ?? new TokenBucketLimiter({ windowMs: ACCOUNT_WINDOW_MS }),
  };
  const router = buildRouter(services);

  const app = new Koa<AppState>();
  logAppErrors(app, logger);
  app.use(requestId());
  app.use(logRequests(logger));
  app.use(errorHandler(storageProblem));
  app.use(requireHost());
  app.use(underV1([noStore(), authenticate(services), rateLimit(services)]));
  app.use(unrouted());
  app.use(createDashboard(services, { signingSecret, storageProblem }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** /v1 paths that hold nothing secret and need no key: the API's description, for browsers, docs and code generators. */
const PUBLIC_V1_PATHS = new Set(['/v1/openapi.json']);

/** Runs the middleware for every /v1 request, routed or not, so an unknown /v1 path also needs a key. */
function underV1(middleware: AppMiddleware[]): AppMiddleware {
  return function v1Only(ctx, next) {
    if ((ctx.path !== '/v1' && !ctx.path.startsWith('/v1/')) || PUBLIC_V1_PATHS.has(ctx.path)) return next();
    const run = (i: number): Promise<unknown> => {
      const handler = middleware[i];
      return handler ? Promise.resolve(handler(ctx, () => run(i + 1))) : next();
    };
    return run(0);
  };
}

/** API answers are per caller and change as tasks progress: no shared or stale caches. */
function noStore(): AppMiddleware {
  return function setNoStore(ctx, next) {
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2); the server leaves that check to the app so the answer has our shape. */
function requireHost(): AppMiddleware {
  return function checkHost(ctx, next) {
    if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined) throw new MissingHostError();
    return next();
  };
}

/** Turns what the router left unanswered into errors of the one shape: 404 for unknown paths, 405 for wrong methods. */
function unrouted(): AppMiddleware {
  return async function answerUnrouted(ctx, next) {
    await next();
    if (ctx.body != null) return;
    // The router answers a method it has never heard of (PROPFIND) with 501 and an empty Allow on any path.
    const allowed = String(ctx.response.get('Allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    if ((ctx.status === 405 || ctx.status === 501) && allowed.length > 0)
      throw new MethodNotAllowedError(ctx.method, allowed);
    if (ctx.status === 404 || ctx.status === 501) throw new RouteNotFoundError(ctx.method, ctx.path);
  };
}
