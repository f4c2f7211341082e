/**
 * The one place that knows which error means which HTTP status. Handlers only throw; this turns any
 * thrown value into `{"error": {type, code, message, param?}}`, never leaking a stack or a path on 5xx.
 */
import type { LyricsTooLongError, UnknownStyleError } from '../../engine/index.ts';
import {
  IdempotencyConflictError,
  NotFoundError,
  QuotaExceededError,
  AuthenticationError,
  DownloadLinkError,
  GenerationStateError,
  PlanForbiddenError,
  RateLimitedError,
  ResourceNotFoundError,
  ServiceUnavailableError,
  StorageBudgetError,
  type StorageProblem,
  ValidationError,
} from '../domain/errors.ts';
import { UnsafeUrlError, WebhookLimitError, WebhookNotFoundError } from '../domain/webhooks/errors.ts';
import { StyleNameTakenError } from '../domain/custom-styles.ts';
import {
  BodyTooLargeError,
  CsrfError,
  MalformedBodyError,
  MethodNotAllowedError,
  MissingHostError,
  RangeNotSatisfiableError,
  RouteNotFoundError,
  SessionRequiredError,
} from './errors.ts';
import type { AppMiddleware } from './types.ts';

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'quota_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'service_unavailable_error'
  | 'api_error';

export interface ErrorResponse {
  status: number;
  type: ErrorType;
  code: string;
  message: string;
  param?: string | undefined;
  headers?: Record<string, string>;
  /** Extra machine-readable facts beside the message (the quota's limit and reset time). */
  details?: Record<string, unknown>;
}

type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;
interface Rule {
  matches: (err: Error) => boolean;
  map: (err: Error) => ErrorResponse;
}
const rule = <E extends Error>(cls: ErrorClass<E>, map: (err: E) => ErrorResponse): Rule => ({
  matches: (err) => err instanceof cls,
  map: map as (err: Error) => ErrorResponse,
});
/**
 * Engine errors are matched by name: they may have crossed a worker boundary (losing their class), and
 * the HTTP layer should not load the engine just to name its errors.
 */
const namedRule = <E extends Error>(name: E['name'], map: (err: E) => ErrorResponse): Rule => ({
  matches: (err) => err.name === name,
  map: map as (err: Error) => ErrorResponse,
});

const RULES: Rule[] = [
  rule(ValidationError, (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: e.code,
    message: e.message,
    param: e.param,
  })),
  rule(MalformedBodyError, (e) => ({ status: 400, type: 'invalid_request_error', code: e.code, message: e.message })),
  rule(MissingHostError, (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'missing_host',
    message: e.message,
  })),
  rule(UnsafeUrlError, (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'unsafe_url',
    message: e.message,
    param: e.param,
  })),
  rule(WebhookLimitError, (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'too_many_endpoints',
    message: e.message,
  })),
  namedRule<UnknownStyleError>('UnknownStyleError', (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'unknown_style',
    message: e.message,
    param: 'style',
  })),
  namedRule<LyricsTooLongError>('LyricsTooLongError', (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'lyrics_too_long',
    message: e.message,
    param: 'lyrics',
  })),
  namedRule<Error & { param?: string }>('SilentTrackError', (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'silent_track',
    message: e.message,
    param: e.param,
  })),
  namedRule<Error>('InvalidLyricsError', (e) => ({
    status: 400,
    type: 'invalid_request_error',
    code: 'invalid_lyrics',
    message: e.message,
    param: 'lyrics',
  })),
  rule(BodyTooLargeError, (e) => ({
    status: 413,
    type: 'invalid_request_error',
    code: 'body_too_large',
    message: e.message,
    // The unread rest of the body is not worth draining: close the connection after answering.
    headers: { Connection: 'close' },
  })),
  rule(AuthenticationError, (e) => ({
    status: 401,
    type: 'authentication_error',
    code: e.code,
    message: e.message,
    headers: { 'WWW-Authenticate': 'Bearer realm="tunesmith"' },
  })),
  rule(SessionRequiredError, (e) => ({
    status: 401,
    type: 'authentication_error',
    code: 'not_signed_in',
    message: e.message,
  })),
  rule(CsrfError, (e) => ({ status: 403, type: 'permission_error', code: 'csrf_failed', message: e.message })),
  rule(PlanForbiddenError, (e) => ({
    status: 403,
    type: 'permission_error',
    code: 'plan_forbidden',
    message: e.message,
    param: e.param,
  })),
  rule(DownloadLinkError, (e) => ({ status: 403, type: 'permission_error', code: e.code, message: e.message })),
  rule(StorageBudgetError, (e) => ({
    status: 402,
    type: 'quota_error',
    code: 'storage_budget_exceeded',
    message: e.message,
    details: { budget_bytes: e.budget, used_bytes: e.used, needed_bytes: e.needed },
  })),
  rule(QuotaExceededError, (e) => ({
    status: 402,
    type: 'quota_error',
    code: 'quota_exceeded',
    message: e.message,
    details: { limit: e.limit, resets_at: e.resetsAt.toISOString() },
  })),
  rule(ResourceNotFoundError, (e) => ({
    status: 404,
    type: 'not_found_error',
    code: e.code,
    message: e.message,
    param: e.param,
  })),
  rule(WebhookNotFoundError, (e) => ({
    status: 404,
    type: 'not_found_error',
    code: `${e.what}_not_found`,
    message: e.message,
    param: 'id',
  })),
  rule(NotFoundError, (e) => ({
    status: 404,
    type: 'not_found_error',
    code: `${e.what}_not_found`,
    message: e.message,
  })),
  rule(RouteNotFoundError, (e) => ({
    status: 404,
    type: 'not_found_error',
    code: 'route_not_found',
    message: e.message,
  })),
  rule(MethodNotAllowedError, (e) => ({
    status: 405,
    type: 'invalid_request_error',
    code: 'method_not_allowed',
    message: e.message,
    headers: { Allow: e.allowed.join(', ') },
  })),
  rule(GenerationStateError, (e) => ({
    status: 409,
    type: 'conflict_error',
    code: e.code,
    message: e.message,
    param: 'id',
  })),
  rule(StyleNameTakenError, (e) => ({
    status: 409,
    type: 'conflict_error',
    code: 'style_exists',
    message: e.message,
    param: 'name',
  })),
  rule(IdempotencyConflictError, (e) => ({
    status: 409,
    type: 'conflict_error',
    code: 'idempotency_key_reused',
    message: e.message,
    param: 'Idempotency-Key',
  })),
  rule(RangeNotSatisfiableError, (e) => ({
    status: 416,
    type: 'invalid_request_error',
    code: 'range_not_satisfiable',
    message: e.message,
    param: 'Range',
    headers: { 'Content-Range': `bytes */${e.size}` },
  })),
  rule(RateLimitedError, (e) => ({
    status: 429,
    type: 'rate_limit_error',
    code: e.code,
    message: e.message,
    headers: { 'Retry-After': String(e.retryAfter) },
  })),
  rule(ServiceUnavailableError, (e) => ({
    status: 503,
    type: 'service_unavailable_error',
    code: 'service_unavailable',
    message: e.message,
  })),
];

/** Tells which StorageProblem an error is, if any: the store's classifier, handed in by createApp. */
export type StorageClassifier = (error: unknown) => StorageProblem | undefined;

const STORAGE: Record<StorageProblem, ErrorResponse> = {
  shutting_down: {
    status: 503,
    type: 'service_unavailable_error',
    code: 'shutting_down',
    message: 'The server is shutting down. Retry in a few seconds.',
    headers: { 'Retry-After': '5' },
  },
  // Another server took the data dir over: this one must change nothing, and its operator must pick one.
  lock_lost: {
    status: 503,
    type: 'service_unavailable_error',
    code: 'service_unavailable',
    message:
      'This server no longer accepts changes: another Tunesmith server took over its data. Its operator must stop one of them.',
  },
  // The data dir's disk is full, or the PostgreSQL database is full or cannot be reached: nothing is wrong with
  // the request, and it goes through once space is freed or the database is back (no restart of ours needed).
  full: storageUnavailable('full'),
  unreachable: storageUnavailable('unreachable'),
};

function storageUnavailable(state: 'full' | 'unreachable'): ErrorResponse {
  return {
    status: 503,
    type: 'service_unavailable_error',
    code: 'storage_unavailable',
    message: `The server cannot save anything right now: its storage is ${state}. Retry later.`,
    headers: { 'Retry-After': '60' },
  };
}

const INTERNAL: ErrorResponse = {
  status: 500,
  type: 'api_error',
  code: 'internal_error',
  message: 'Something went wrong on our side. Retry the request; if it keeps failing, report the X-Request-Id.',
};

/** Statuses other middleware (Koa, the router) may raise as http-errors with `expose` set. */
const EXPOSED_TYPES: Record<number, ErrorType> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  429: 'rate_limit_error',
};

/** `storageProblem`: the store's classifier; without it, the store's errors are internal errors. */
export function describeError(err: unknown, storageProblem: StorageClassifier = () => undefined): ErrorResponse {
  if (err instanceof Error) {
    for (const { matches, map } of RULES) if (matches(err)) return map(err);
    const problem = storageProblem(err);
    if (problem) return STORAGE[problem];
    const status = (err as { status?: unknown }).status;
    if ((err as { expose?: unknown }).expose === true && typeof status === 'number' && status >= 400 && status < 500) {
      return {
        status,
        type: EXPOSED_TYPES[status] ?? 'invalid_request_error',
        code: 'invalid_request',
        message: err.message,
      };
    }
  }
  return INTERNAL;
}

export function errorBody(described: ErrorResponse) {
  const { type, code, message, param, details } = described;
  return { error: { type, code, message, ...(param === undefined ? {} : { param }), ...details } };
}

/** First in the chain (after the request id), so it sees everything thrown below it. */
export function errorHandler(storageProblem?: StorageClassifier): AppMiddleware {
  return async function handleErrors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const described = describeError(err, storageProblem);
      // 5xx are ours to fix: log them through Koa's 'error' event (one listener, in server.ts or Koa's default).
      if (described.status >= 500) ctx.app.emit('error', err, ctx);
      if (ctx.headerSent) return;
      ctx.status = described.status;
      for (const [name, value] of Object.entries(described.headers ?? {})) ctx.set(name, value);
      ctx.set('Cache-Control', 'no-store');
      ctx.remove('Content-Disposition');
      ctx.body = errorBody(described);
    }
  };
}
