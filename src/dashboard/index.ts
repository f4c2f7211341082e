/**
 * The developer dashboard: server-rendered pages from the same Koa app as the API. Its routes live in their
 * own router, wrapped in one middleware that sets the security headers, turns errors into HTML pages
 * (statuses still from the one error table) and sends signed-out visitors to the sign-in page.
 */
import { Router } from '@koa/router';
import { describeError, type ErrorResponse, type StorageClassifier } from '../http/error-handler.ts';
import { MethodNotAllowedError, SessionRequiredError } from '../http/errors.ts';
import { TokenBucketLimiter } from '../domain/token-bucket.ts';
import type { AppContext, AppMiddleware, AppState } from '../http/types.ts';
import type { Services } from '../services.ts';
import { serveAsset } from './assets.ts';
import type { DashboardDeps } from './deps.ts';
import { html } from './html.ts';
import { sendHtml, setSecurityHeaders, viewerOf, type Viewer } from './http.ts';
import { setCredentials, showSignIn, showSignUp, signIn, signInWithLink, signOut, signUp } from './pages/auth.ts';
import { showDocs } from './pages/docs.ts';
import {
  cancelGeneration,
  deleteGeneration,
  deriveFromTrack,
  generationStatus,
  showGenerations,
  showTrack,
  waveform,
} from './pages/generations.ts';
import { createKey, revokeKey, showKeys } from './pages/keys.ts';
import { deleteStyle, makeStyle, showStyles } from './pages/styles.ts';
import { showOverview } from './pages/overview.ts';
import { generateFromPlayground, showPlayground } from './pages/playground.ts';
import {
  addEndpoint,
  deleteEndpoint,
  enableEndpoint,
  resendDelivery,
  rotateSecret,
  showWebhooks,
} from './pages/webhooks.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { deriveKeys } from './tokens.ts';
import { plainPage } from './views/layout.ts';
import { WaveformCache } from './waveform.ts';

export interface DashboardOptions {
  /** The service's signing secret; the cookie and CSRF keys are derived from it. */
  signingSecret: string;
  /** The store's classifier of the errors that mean it cannot take changes now (503s, as in the API). */
  storageProblem?: StorageClassifier;
}

/** A page's handler; routes with :params get the router's context, which carries them. */
type Handler = (ctx: AppContext & { params: Record<string, string> }, viewer: Viewer) => Promise<void>;

export function createDashboard(services: Services, options: DashboardOptions): AppMiddleware {
  const deps: DashboardDeps = {
    services,
    credentials: services.repository.credentials,
    keys: deriveKeys(options.signingSecret),
    throttle: new SignInThrottle(),
    signUps: new TokenBucketLimiter({ windowMs: 3600_000 }),
    waveforms: new WaveformCache(),
    describeError: (error) => describeError(error, options.storageProblem),
  };
  /** Pages redirect a signed-out visitor to sign in; data endpoints answer 401. */
  const signedIn = (handler: Handler) => async (ctx: AppContext & { params: Record<string, string> }) => {
    const viewer = await viewerOf(ctx, deps);
    if (viewer) {
      ctx.state.accountId = viewer.account.id;
      return handler(ctx, viewer);
    }
    if (ctx.method === 'GET' && !/\.(json|svg)$/.test(ctx.path)) return ctx.redirect('/signin');
    throw new SessionRequiredError();
  };

  const router = new Router<AppState>({ strict: true, sensitive: true });
  router.get('/assets/:name', serveAsset);
  router.get('/signin', showSignIn(deps));
  router.post('/signin', signIn(deps));
  router.get('/signin/:token', signInWithLink(deps));
  router.get('/signup', showSignUp(deps));
  router.post('/signup', signUp(deps));
  router.post('/signout', signOut(deps));
  router.get('/', signedIn(showOverview(deps)));
  router.post('/account/credentials', signedIn(setCredentials(deps)));
  router.get('/keys', signedIn(showKeys(deps)));
  router.post('/keys', signedIn(createKey(deps)));
  router.post('/keys/:id/revoke', signedIn(revokeKey(deps)));
  router.get('/generations', signedIn(showGenerations(deps)));
  router.get('/generations/:id', signedIn(showTrack(deps)));
  router.get('/generations/:id/status.json', signedIn(generationStatus(deps)));
  router.get('/generations/:id/waveform.svg', signedIn(waveform(deps)));
  router.post('/generations/:id/cancel', signedIn(cancelGeneration(deps)));
  router.post('/generations/:id/delete', signedIn(deleteGeneration(deps)));
  router.post('/generations/:id/extend', signedIn(deriveFromTrack(deps, 'extend')));
  router.post('/generations/:id/remix', signedIn(deriveFromTrack(deps, 'remix')));
  router.get('/playground', signedIn(showPlayground(deps)));
  router.post('/playground', signedIn(generateFromPlayground(deps)));
  router.get('/styles', signedIn(showStyles(deps)));
  router.post('/styles', signedIn(makeStyle(deps)));
  router.post('/styles/:name/delete', signedIn(deleteStyle(deps)));
  router.get('/webhooks', signedIn(showWebhooks(deps)));
  router.post('/webhooks/endpoints', signedIn(addEndpoint(deps)));
  router.post('/webhooks/endpoints/:id/delete', signedIn(deleteEndpoint(deps)));
  router.post('/webhooks/endpoints/:id/enable', signedIn(enableEndpoint(deps)));
  router.post('/webhooks/secret/rotate', signedIn(rotateSecret(deps)));
  router.post('/webhooks/deliveries/:id/resend', signedIn(resendDelivery(deps)));
  router.get('/docs', signedIn(showDocs(deps)));
  const routes = router.routes();

  // Wrapped rather than mounted with app.use(router.routes()), so the API's routers stay the only ones listed.
  return async function dashboard(ctx, next) {
    // The API and file downloads never reach a page: skip the route match on the hot paths.
    if (ctx.path.startsWith('/v1/') || ctx.path.startsWith('/files/')) return next();
    const match = router.match(ctx.path, ctx.method);
    if (!match.route) {
      const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))];
      if (allowed.length === 0) return wantsPage(ctx) ? pageOrNotFound(ctx, next) : next();
      throw new MethodNotAllowedError(ctx.method, allowed);
    }
    setSecurityHeaders(ctx);
    try {
      await routes(ctx as Parameters<typeof routes>[0], next);
    } catch (error) {
      // Data endpoints keep the API's JSON error shape; pages get a page.
      if (/\.(json|svg)$/.test(ctx.path)) throw error;
      errorPage(ctx, deps.describeError(error), error);
    }
  };
}

/** A browser asking for a page (curl and fetch accept anything, and get the API's JSON). */
const wantsPage = (ctx: AppContext): boolean =>
  (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.accepts('json', 'html') === 'html';

/** What the API's routes answer; where none does, a page saying so rather than the API's JSON error. */
async function pageOrNotFound(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.body != null || ctx.status !== 404) return;
  setSecurityHeaders(ctx);
  sendHtml(
    ctx,
    plainPage(
      'Page not found',
      html`<h1>Page not found</h1>
<p>There is no page at <code>${ctx.path}</code>.</p>
<p><a class="button" href="/">Back to the dashboard</a> <a class="button secondary" href="/docs">Docs</a></p>`,
    ),
    404,
  );
}

/** A dashboard error as a page: the status and sentence from the one error table, nothing internal on 5xx. */
function errorPage(ctx: AppContext, described: ErrorResponse, error: unknown): void {
  if (described.status >= 500) ctx.app.emit('error', error, ctx);
  sendHtml(
    ctx,
    plainPage(
      'Something went wrong',
      html`<h1>${described.status >= 500 ? 'Something went wrong' : 'That did not work'}</h1>
<p>${described.message}</p>
<p><a class="button" href="/">Back to the dashboard</a></p>`,
    ),
    described.status,
  );
}
