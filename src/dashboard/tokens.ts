/**
 * The session cookie and the CSRF tokens, both HMAC-SHA256 with keys derived from the service's signing
 * secret (one derived key per purpose, so a value signed for one can never pass as the other).
 *
 * Cookie value: "<session id>.<expires, unix seconds>.<base64url HMAC of the two>". The signature stops
 * forged and altered cookies before any lookup; the session id must also be live in the credential
 * store, so signing out ends it for good.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../ids.ts';

export interface DashboardKeys {
  cookie: Buffer;
  csrf: Buffer;
}

export function deriveKeys(signingSecret: string): DashboardKeys {
  const derive = (purpose: string) =>
    createHmac('sha256', signingSecret).update(`tunesmith dashboard ${purpose} v1`).digest();
  return { cookie: derive('session cookie'), csrf: derive('csrf') };
}

const mac = (key: Buffer, text: string): string => createHmac('sha256', key).update(text).digest('base64url');

export function signSessionCookie(key: Buffer, sessionId: string, expiresAt: Date): string {
  const payload = `${sessionId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(key, payload)}`;
}

/** The session id inside a cookie value, or null when the value is malformed, tampered with or expired. */
export function readSessionCookie(key: Buffer, value: string, now: Date): string | null {
  const match = /^([A-Za-z0-9_-]{16,128})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const [, sessionId = '', expires = '', sig = ''] = match;
  if (!safeEqual(sig, mac(key, `${sessionId}.${expires}`))) return null;
  if (Number(expires) * 1000 <= now.getTime()) return null;
  return sessionId;
}

/**
 * A CSRF token bound to what identifies the browser: the session id once signed in, the pre-session
 * cookie before. A token from one session is worthless in another.
 */
export const csrfToken = (key: Buffer, binding: string): string => mac(key, `csrf.${binding}`);

export const validCsrf = (key: Buffer, binding: string, given: unknown): boolean =>
  typeof given === 'string' && given.length > 0 && safeEqual(given, csrfToken(key, binding));
