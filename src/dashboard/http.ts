/**
 * The dashboard's request plumbing: security headers, the session cookie, the pre-session cookie that
 * CSRF tokens bind to before sign-in, reading forms and checking their CSRF token.
 */
import { randomBytes } from 'node:crypto';
import { BodyTooLargeError, CsrfError, MalformedBodyError } from '../http/errors.ts';
import type { AppContext } from '../http/types.ts';
import type { Account } from '../domain/model.ts';
import type { DashboardDeps } from './deps.ts';
import { csrfToken, readSessionCookie, signSessionCookie, validCsrf } from './tokens.ts';

export const SESSION_COOKIE = 'ts_session';
export const PRE_SESSION_COOKIE = 'ts_pre';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const FORM_LIMIT_BYTES = 32 * 1024;

/** Only the app's own scripts, styles, images and media; no framing, no plugins, forms post only here. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setSecurityHeaders(ctx: AppContext): void {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Sign-in links carry a token in the path: never send it to another site. (Not no-referrer: with it
  // Chromium sends "Origin: null" on form posts, which the Origin check must refuse.)
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
}

/** The signed-in person, as a handler sees them. */
export interface Viewer {
  account: Account;
  sessionId: string;
  /** The CSRF token every form of this session carries. */
  csrf: string;
}

/**
 * Cookie attributes. `Secure` when the request came over TLS or the operator's public URL is https: behind a
 * TLS-terminating proxy the app itself sees plain http, but the browser only ever reaches it over https.
 */
function cookieOptions(ctx: AppContext, deps: DashboardDeps, maxAge?: number) {
  const secure = ctx.secure || deps.services.config.publicUrl.startsWith('https:');
  // Koa's cookie jar refuses a Secure cookie on a connection it thinks is plain unless told otherwise.
  if (secure) ctx.cookies.secure = true;
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    path: '/',
    overwrite: true,
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

export async function viewerOf(ctx: AppContext, deps: DashboardDeps): Promise<Viewer | undefined> {
  const raw = ctx.cookies.get(SESSION_COOKIE);
  if (!raw) return undefined;
  const now = deps.services.now();
  const sessionId = readSessionCookie(deps.keys.cookie, raw, now);
  const session = sessionId === null ? undefined : await deps.credentials.findSession(sessionId, now);
  const account = session && (await deps.services.repository.getAccount(session.account_id));
  if (!session || !account) return undefined;
  return { account, sessionId: session.id, csrf: csrfToken(deps.keys.csrf, session.id) };
}

export async function startSession(ctx: AppContext, deps: DashboardDeps, accountId: string): Promise<void> {
  const previous = await viewerOf(ctx, deps);
  if (previous) await deps.credentials.endSession(previous.sessionId);
  const session = await deps.credentials.createSession(accountId, deps.services.now(), SESSION_TTL_MS);
  ctx.cookies.set(
    SESSION_COOKIE,
    signSessionCookie(deps.keys.cookie, session.id, session.expires_at),
    cookieOptions(ctx, deps, SESSION_TTL_MS),
  );
  ctx.cookies.set(PRE_SESSION_COOKIE, null, cookieOptions(ctx, deps));
}

export async function endSession(ctx: AppContext, deps: DashboardDeps, viewer: Viewer): Promise<void> {
  await deps.credentials.endSession(viewer.sessionId);
  ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(ctx, deps));
}

/** The CSRF token for the sign-in and sign-up forms, bound to a random pre-session cookie set here. */
export function preSessionCsrf(ctx: AppContext, deps: DashboardDeps): string {
  let binding = ctx.cookies.get(PRE_SESSION_COOKIE);
  if (!binding || !/^[A-Za-z0-9_-]{32}$/.test(binding)) {
    binding = randomBytes(24).toString('base64url');
    ctx.cookies.set(PRE_SESSION_COOKIE, binding, cookieOptions(ctx, deps));
  }
  return csrfToken(deps.keys.csrf, binding);
}

/** This site as the browser reached it, e.g. http://127.0.0.1:3000 (Koa 3's ctx.origin echoes the Origin header instead). */
export const siteOrigin = (ctx: AppContext): string => `${ctx.protocol}://${ctx.host}`;

/**
 * Whether a form's Origin is this site: as the app sees the request, or the public URL the operator set.
 * Behind an HTTPS reverse proxy the two differ (the browser says https://…, the app sees plain http), and
 * the proxy's forwarded headers are not trusted, so the configured URL is what vouches for it.
 */
function isOwnOrigin(ctx: AppContext, publicUrl: string, origin: string): boolean {
  return origin === siteOrigin(ctx) || origin === new URL(publicUrl).origin;
}

/** Reads an urlencoded form and checks its CSRF token against the session (or pre-session) binding. */
export async function readCheckedForm(
  ctx: AppContext,
  deps: DashboardDeps,
  viewer: Viewer | undefined,
): Promise<URLSearchParams> {
  const origin = ctx.get('Origin');
  if (origin !== '' && !isOwnOrigin(ctx, deps.services.config.publicUrl, origin)) throw new CsrfError();
  const form = await readForm(ctx);
  const binding = viewer?.sessionId ?? ctx.cookies.get(PRE_SESSION_COOKIE) ?? '';
  if (binding === '' || !validCsrf(deps.keys.csrf, binding, form.get('_csrf'))) throw new CsrfError();
  return form;
}

async function readForm(ctx: AppContext): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new MalformedBodyError(
      'unsupported_media_type',
      'Dashboard forms are sent as application/x-www-form-urlencoded.',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) throw new BodyTooLargeError(FORM_LIMIT_BYTES);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Where a browser goes after a POST: 303 so the next request is a GET. */
export function seeOther(ctx: AppContext, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
  ctx.status = 303;
}

export function sendHtml(ctx: AppContext, body: { toString(): string }, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html>\n${body.toString()}`;
}
