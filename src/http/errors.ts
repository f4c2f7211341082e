/**
 * Errors of the HTTP protocol itself (bodies, hosts, routes, ranges, dashboard sessions). The domain's errors are in
 * src/domain/errors.ts; src/http/error-handler.ts maps both to statuses in one table.
 */

/** The request body could not be read as the JSON object we accept (not JSON, not UTF-8, empty, too deep). */
export class MalformedBodyError extends Error {
  override name = 'MalformedBodyError' as const;
  constructor(
    readonly code: 'invalid_json' | 'body_required' | 'unsupported_media_type' | 'invalid_encoding' | 'too_deep',
    message: string,
  ) {
    super(message);
  }
}

/** The request body is larger than the limit. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError' as const;
  constructor(readonly limitBytes: number) {
    super(`The request body is larger than ${limitBytes} bytes. Send a smaller body.`);
  }
}

/** An HTTP/1.1 request without a Host header (Node's server leaves the answer to the app). */
export class MissingHostError extends Error {
  override name = 'MissingHostError' as const;
  constructor() {
    super('An HTTP/1.1 request needs a Host header. Send one.');
  }
}

/** Nothing is routed at this path. */
export class RouteNotFoundError extends Error {
  override name = 'RouteNotFoundError' as const;
  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(`There is no route ${method} ${path}. See GET /v1/openapi.json for the routes.`);
  }
}

/** The path exists but not for this method. */
export class MethodNotAllowedError extends Error {
  override name = 'MethodNotAllowedError' as const;
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`${method} is not allowed here. Use ${allowed.join(' or ')}.`);
  }
}

/** A Range header asks for bytes outside the file. */
export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError' as const;
  constructor(readonly size: number) {
    super(`The requested range is outside the file (${size} bytes). Ask for a range within it, or no range.`);
  }
}

/** A dashboard request that needs a signed-in session came without a live one. */
export class SessionRequiredError extends Error {
  override name = 'SessionRequiredError' as const;
  constructor() {
    super('You are not signed in (or your session has ended). Sign in again.');
  }
}

/** A dashboard form whose CSRF token (or Origin) does not belong to this browser's session. */
export class CsrfError extends Error {
  override name = 'CsrfError' as const;
  constructor() {
    super('This form has expired or did not come from this site. Reload the page and try again.');
  }
}
