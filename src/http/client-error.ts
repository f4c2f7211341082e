/**
 * Requests Node's HTTP parser rejects (a broken request line, headers over the size limit) never reach
 * Koa. Attached as the server's 'clientError' listener, this still answers them in the one error shape.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { newRequestId } from './request-id.ts';

export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large. Send shorter headers (and a shorter URL).']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive. Send it again.']
        : [400, 'malformed_request', 'The request is not valid HTTP/1.1. Check the request line and headers.'];
  answerOnSocket(socket, status, code, message);
}

/**
 * A CONNECT request (a proxy tunnel) is not something this server offers. Node hands it to a 'connect' listener
 * with the raw socket, and closes the socket without a word when there is none: answer it as any other refusal.
 */
export function answerConnect(_req: unknown, socket: Duplex): void {
  answerOnSocket(socket, 405, 'method_not_allowed', 'This server is not a proxy: CONNECT is not supported.');
}

/** An error in the app's shape, written straight to a socket Node took away from the app, which is then closed. */
function answerOnSocket(socket: Duplex, status: number, code: string, message: string): void {
  const body = errorBody(code, message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${newRequestId()}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The app's error body for a request refused before it reached the app. */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { type: 'invalid_request_error', code, message } });
}
