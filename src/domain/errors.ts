/**
 * The domain's errors: what generations, accounts, plans and download links refuse. Like the store's and the
 * engine's errors they carry no status code: src/http/error-handler.ts maps every class to a status in one table.
 */

/** A request field, query parameter, header or body is unusable. `param` names the part at fault. */
export class ValidationError extends Error {
  override name = 'ValidationError' as const;
  constructor(
    readonly param: string | undefined,
    message: string,
    readonly code: string = 'invalid_value',
  ) {
    super(message);
  }
}

export type AuthenticationProblem = 'missing_api_key' | 'malformed_api_key' | 'invalid_api_key' | 'revoked_api_key';

/** No usable API key came with the request. */
export class AuthenticationError extends Error {
  override name = 'AuthenticationError' as const;
  constructor(readonly code: AuthenticationProblem) {
    super(AUTHENTICATION_MESSAGES[code]);
  }
}

const AUTHENTICATION_MESSAGES: Record<AuthenticationProblem, string> = {
  missing_api_key: 'No API key was sent. Send it as "Authorization: Bearer <key>".',
  malformed_api_key: 'The Authorization header is not of the form "Bearer <key>". Send "Authorization: Bearer <key>".',
  invalid_api_key: 'The API key is not valid. Check it, or create a new one with "tunesmith keys create".',
  revoked_api_key: 'The API key has been revoked. Create a new one with "tunesmith keys create".',
};

/** The account's plan does not include a feature the request asked for. */
export class PlanForbiddenError extends Error {
  override name = 'PlanForbiddenError' as const;
  constructor(
    readonly param: string | undefined,
    readonly planLabel: string,
    feature: string,
    /** The labels of the plans that include it. */
    includedIn: readonly string[],
  ) {
    const alternative = param === undefined ? '' : `, or leave out "${param}"`;
    const upgrade =
      includedIn.length === 0
        ? `No plan on this server includes them${alternative === '' ? '' : `: leave out "${param}"`}.`
        : `Upgrade to ${includedIn.length > 1 ? `${includedIn.slice(0, -1).join(', ')} or ${includedIn.at(-1)}` : includedIn[0]}${alternative}.`;
    super(`${feature} are not available on the ${planLabel} plan. ${upgrade}`);
  }
}

/** Too many requests: from one account (its rate limit) or from one address (repeated failed authentications). */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError' as const;
  constructor(
    /** Whole seconds until a retry can succeed. */
    readonly retryAfter: number,
    readonly code: 'rate_limit_exceeded' | 'too_many_failed_authentications' | 'too_many_tasks',
    message: string,
  ) {
    super(message);
  }
}

/** A signed download link whose signature does not match or whose time is up. */
export class DownloadLinkError extends Error {
  override name = 'DownloadLinkError' as const;
  constructor(readonly code: 'invalid_signature' | 'link_expired') {
    super(
      code === 'link_expired'
        ? 'This download link has expired. Fetch the generation again for fresh download_urls.'
        : 'This download link is not valid. Use the download_urls of the generation exactly as given.',
    );
  }
}

/** A requested resource (generation, file) does not exist or is not the caller's. */
export class ResourceNotFoundError extends Error {
  override name = 'ResourceNotFoundError' as const;
  constructor(
    readonly code: 'generation_not_found' | 'file_not_found' | 'style_not_found',
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** Cancel asked of a finished generation, or delete of one still waiting or rendering. */
export type GenerationStateCode =
  | 'generation_finished'
  | 'generation_not_finished'
  | 'source_not_completed'
  | 'source_is_loop'
  | 'source_without_plan';

export class GenerationStateError extends Error {
  override name = 'GenerationStateError' as const;
  /** `operation`: for the source codes, what was asked of the source (extend or remix). */
  constructor(
    readonly code: GenerationStateCode,
    status: string,
    operation = 'extend',
  ) {
    super(stateMessage(code, status, operation));
  }
}

function stateMessage(code: GenerationStateCode, status: string, operation: string): string {
  switch (code) {
    case 'generation_finished':
      return `This generation is already ${status}: there is nothing to cancel. DELETE /v1/generation/{id} removes it.`;
    case 'generation_not_finished':
      return `This generation is still ${status}. Cancel it first with POST /v1/generation/{id}/cancel, then delete it.`;
    case 'source_not_completed':
      return status === 'failed'
        ? `This generation failed, so it has no track to ${operation}. Make a new one with POST /v1/generate.`
        : `This generation is still ${status}; ${operation} it once it is completed.`;
    case 'source_is_loop':
      return `This generation is a seamless loop, which has no sections or ending to ${operation}. Make a track without "loop" to ${operation} it.`;
    case 'source_without_plan':
      return `This generation was made before extend and remix existed and does not report the plan it played, so it cannot be spliced. Render it again with POST /v1/generate (the same prompt and seed) to ${operation} it.`;
  }
}

/** A part the service depends on (store, render pool) is down. */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError' as const;
}

/** Thrown by createGeneration when the month's quota is spent. */
export class QuotaExceededError extends Error {
  override name = 'QuotaExceededError' as const;
  constructor(
    readonly limit: number,
    readonly resetsAt: Date,
  ) {
    super(
      `The monthly quota of ${limit} generations is used up; it resets on ${resetsAt.toISOString().slice(0, 10)} at ${resetsAt.toISOString().slice(11, 16)} UTC.`,
    );
  }
}

/** A new task would take an account past its storage budget (TUNESMITH_DISK_BUDGET_GB). */
export class StorageBudgetError extends Error {
  override name = 'StorageBudgetError' as const;
  constructor(
    readonly budget: number,
    readonly used: number,
    readonly needed: number,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when an Idempotency-Key is reused with a different body. */
export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError' as const;
  constructor() {
    super('This Idempotency-Key was already used with a different request body. Use a new key for a new request.');
  }
}

/** Thrown by a create with `replayOnly` when no earlier answer is kept under its Idempotency-Key. */
export class NothingToReplayError extends Error {
  override name = 'NothingToReplayError' as const;
  constructor() {
    super('No earlier request was made with this Idempotency-Key.');
  }
}

/** Thrown when a record to change does not exist. */
export class NotFoundError extends Error {
  override name = 'NotFoundError' as const;
  constructor(
    readonly what: string,
    readonly id: string,
  ) {
    super(`No ${what} with id ${id}.`);
  }
}

/** A sign-up for an email that already has an account (or is being signed up right now). */
export class EmailTakenError extends Error {
  override name = 'EmailTakenError' as const;
  constructor() {
    super('An account with this email already exists. Sign in instead.');
  }
}

/**
 * Why the records cannot take a change right now, whatever the request: the server is shutting down, another
 * server took its data dir over, or the storage is full or unreachable. The store says which
 * (src/store/errors.ts storageProblem); the HTTP edge answers each with a 503.
 */
export type StorageProblem = 'shutting_down' | 'lock_lost' | 'full' | 'unreachable';
