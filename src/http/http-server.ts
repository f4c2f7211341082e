/**
 * The HTTP server the app runs in, with Node's own refusals turned into the app's error shape: what the
 * parser rejects ('clientError'), an `Expect` other than 100-continue ('checkExpectation'), and a missing
 * `Host` (left to the app, which answers it with a request id and a log line).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerClientError, errorBody } from './client-error.ts';
import { newRequestId } from './request-id.ts';

export function createHttpServer(): Server {
  // Node would answer a missing Host itself, with a bare 400; the app's requireHost() answers it instead.
  const server = createServer({ requireHostHeader: false });
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectationFailed);
  return server;
}

function answerExpectationFailed(_req: IncomingMessage, res: ServerResponse): void {
  const body = errorBody('expectation_failed', 'The Expect header can only be 100-continue. Send the request without it.');
  res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': newRequestId() });
  res.end(body);
}
