/**
 * Webhook errors. Like the store's errors they carry no HTTP status: src/http/error-handler.ts maps them.
 */

/** A webhook URL we refuse to call: it points (or resolves) at a loopback, private, metadata or similar address. */
export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError' as const;
  constructor(
    readonly param: string | undefined,
    /** Why, in a few words: "127.0.0.1 is a loopback address". */
    readonly reason: string,
  ) {
    super(
      `${param === undefined ? 'The URL' : `"${param}"`} is refused: ${reason}. Webhooks go only to public http(s) addresses.`,
    );
  }
}

/** A webhook endpoint or delivery that does not exist in the caller's account. */
export class WebhookNotFoundError extends Error {
  override name = 'WebhookNotFoundError' as const;
  constructor(
    readonly what: 'webhook_endpoint' | 'webhook_delivery',
    readonly id: string,
  ) {
    super(
      what === 'webhook_endpoint'
        ? `No webhook endpoint with id ${id} exists in your account. List them with GET /v1/webhooks.`
        : `No webhook delivery with id ${id} exists in your account. List them with GET /v1/webhooks/deliveries.`,
    );
  }
}

/** An account already has as many endpoints as it may. */
export class WebhookLimitError extends Error {
  override name = 'WebhookLimitError' as const;
  constructor(readonly limit: number) {
    super(`An account may have at most ${limit} webhook endpoints. Delete one first.`);
  }
}
