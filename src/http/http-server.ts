/**
 * The HTTP server the app runs in, with Node's own refusals turned into the app's error shape: what the
 * parser rejects ('clientError'), an `Expect` other than 100-continue ('checkExpectation'), and a missing
 * `Host` (left to the app, which answers it with a request id and a log line), and CONNECT. Its limits close what a stalled
 * client would otherwise hold open for good: a request that does not arrive, a connection that moves nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answerClientError, answerConnect, errorBody } from './client-error.ts';
import { newRequestId } from './request-id.ts';

export interface HttpTimeouts {
  /** A request's headers and body must have arrived whole within this; otherwise a 408 and the connection closes. @default 30 */
  requestTimeoutSeconds?: number | undefined;
  /**
   * A connection that moves no bytes either way for this long is closed: a stalled upload, a download the client
   * stopped reading. A long poll lifts it while it waits. @default 30
   */
  idleTimeoutSeconds?: number | undefined;
}

/** Node's keep-alive default: an idle connection between requests is closed after 5 s (or the idle limit, if shorter). */
const KEEP_ALIVE_MS = 5_000;
/**
 * How long past the advertised `Keep-Alive: timeout` the connection really stays open: a client that reuses it
 * just before the advertised end has a request in flight, which must be answered, not reset
 * (test/http-keep-alive.test.ts). Node 22.19+ and 24 default to this; set here so it holds if that default changes.
 */
const KEEP_ALIVE_GRACE_MS = 1_000;

export function createHttpServer(timeouts: HttpTimeouts = {}): Server {
  const requestMs = (timeouts.requestTimeoutSeconds ?? 30) * 1000;
  const idleMs = (timeouts.idleTimeoutSeconds ?? 30) * 1000;
  const server = createServer({
    // Node would answer a missing Host itself, with a bare 400; the app's requireHost() answers it instead.
    requireHostHeader: false,
    requestTimeout: requestMs,
    headersTimeout: requestMs,
    // Node checks the request limit on this beat (30 s by default): a short limit needs a quicker one.
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, requestMs / 4)),
    keepAliveTimeoutBuffer: KEEP_ALIVE_GRACE_MS,
  });
  server.timeout = idleMs;
  const keepAliveMs = Math.min(KEEP_ALIVE_MS, idleMs);
  // Before Node 22.19 there is no buffer: keep the connection up to 999 ms longer than the whole seconds advertised.
  server.keepAliveTimeout = 'keepAliveTimeoutBuffer' in server ? keepAliveMs : keepAliveMs + 999;
  server.on('clientError', answerClientError);
  server.on('timeout', closeIdle);
  server.on('checkExpectation', answerExpectationFailed);
  server.on('connect', answerConnect);
  return server;
}

/**
 * A connection quiet for the idle limit is closed; one whose request has not arrived whole (the idle limit can
 * beat the request limit to a body that stalls at once) is told so first, as the request limit would.
 */
function closeIdle(socket: Socket): void {
  // Node's own timeout handling reads the same field: the response in progress on this connection.
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (res && !res.headersSent && !res.req.complete && !socket.writableEnded) {
    answerClientError(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
  } else {
    socket.destroy();
  }
}

function answerExpectationFailed(_req: IncomingMessage, res: ServerResponse): void {
  const body = errorBody(
    'expectation_failed',
    'The Expect header can only be 100-continue. Send the request without it.',
  );
  res.writeHead(417, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': newRequestId(),
  });
  res.end(body);
}
