/**
 * The HTTP side of the log: one line per request once its response is over, and the faults Koa reports, in full.
 * A client that goes away before its answer is through (an aborted download or audio preview) is ordinary: its
 * request line says `aborted` at debug level, and the errors the cut-off stream raises are not logged at all.
 */
import type Koa from 'koa';
import type { Logger } from '../log.ts';
import type { AppContext, AppMiddleware, AppState } from './types.ts';

/** Path segments that are secrets themselves: a sign-in link's token. */
const SECRET_IN_PATH = /^(\/signin\/)[^/]+$/;

/** The path as logged: never the query (download signatures live there), never a sign-in token. */
export const loggedPath = (path: string): string => path.replace(SECRET_IN_PATH, '$1[redacted]');

/** Errors that mean the client closed the connection before the answer was through (an aborted download). */
const CLIENT_GONE = new Set([
  'ERR_STREAM_PREMATURE_CLOSE',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_DESTROYED',
]);

/** Right after requestId(): every request, whatever answers it, gets its line. */
export function logRequests(logger: Logger): AppMiddleware {
  return async function logRequest(ctx, next) {
    const started = performance.now();
    ctx.res.once('close', () => {
      const aborted = !ctx.res.writableFinished;
      logger[aborted ? 'debug' : 'info'](
        {
          req_id: ctx.state.requestId,
          method: ctx.method,
          path: loggedPath(ctx.path),
          status: ctx.status,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
          account_id: ctx.state.account?.id ?? ctx.state.accountId ?? null,
          ...(aborted ? { aborted: true } : {}),
        },
        'request',
      );
    });
    await next();
  };
}

/** Koa's 'error' event: faults (5xx) are logged with their stack under the request id. */
export function logAppErrors(app: Koa<AppState>, logger: Logger): void {
  app.silent = true;
  app.on('error', (error: Error & { status?: number; code?: string }, ctx?: AppContext) => {
    // Not ctx.req.destroyed: the request stream is destroyed as soon as its body has been read, so that would
    // hide every fault of a POST. The client is gone when the connection we answer on is.
    const connectionGone = ctx !== undefined && (ctx.res.destroyed || ctx.req.socket?.destroyed === true);
    const clientGone = (error.code !== undefined && CLIENT_GONE.has(error.code)) || connectionGone;
    if (clientGone || (error.status ?? 500) < 500) return;
    logger.error({ req_id: ctx?.state.requestId, err: error }, 'request failed');
  });
}
