import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { ParameterizedContext, Middleware } from 'koa';
import type { Account, ApiKey } from '../domain/model.ts';

export interface AppState {
  requestId: string;
  /** Set by the auth middleware on every /v1 route. */
  account?: Account;
  apiKey?: ApiKey;
  /** The signed-in dashboard account, for the log (API requests have `account`). */
  accountId?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppMiddleware = Middleware<AppState>;
export type RouteContext = RouterContext<AppState>;
export type RouteHandler = RouterMiddleware<AppState>;

/** The state of an authenticated /v1 request. */
export interface AuthedState extends AppState {
  account: Account;
  apiKey: ApiKey;
}

export function authed(ctx: AppContext): AuthedState {
  const { account, apiKey } = ctx.state;
  // The auth middleware runs before every /v1 route; reaching this without it is a wiring bug.
  if (!account || !apiKey) throw new Error('authed() used on a route without the auth middleware');
  return ctx.state as AuthedState;
}
