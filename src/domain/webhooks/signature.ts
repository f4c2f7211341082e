/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * "{webhook-id}.{webhook-timestamp}.{body}", the key is the base64 part of a "whsec_…" secret, and
 * webhook-signature lists one "v1,<base64 HMAC-SHA256>" per valid secret, separated by spaces.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** 32 random bytes, as Standard Webhooks secrets are written. */
export const newWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt, signed with every secret still valid (two during a rotation). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signPayload(secret, id, timestamp, body)).join(' '),
  };
}
