/**
 * A browser stand-in for dashboard tests over fetch: keeps cookies, follows nothing by itself, and reads
 * the CSRF token from the last page it got.
 */
import type { PlanName } from '../../src/domain/model.ts';
export interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(readonly base: string) {}

  async get(path: string): Promise<Page> {
    return this.#send(path, { method: 'GET' });
  }

  /** Posts a form with the last page's CSRF token unless `_csrf` is given; pairs repeat a field (checkboxes). */
  async post(
    path: string,
    fields: Record<string, string> | [string, string][],
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
    const body = new URLSearchParams([
      ...(pairs.some(([name]) => name === '_csrf') ? [] : [['_csrf', this.csrf]]),
      ...pairs,
    ]).toString();
    return this.#send(path, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  async signUp(email: string, password = 'a long enough password'): Promise<Page> {
    return whenPasswordChecksFree(async () => {
      await this.get('/signup');
      return this.post('/signup', { email, password });
    });
  }

  async signIn(email: string, password: string): Promise<Page> {
    return whenPasswordChecksFree(async () => {
      await this.get('/signin');
      return this.post('/signin', { email, password });
    });
  }

  async #send(path: string, init: RequestInit): Promise<Page> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(this.base + path, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }
}

/**
 * Signs up on the dashboard (a new account is Starter) and moves the account to `plan`, as an operator would
 * (`tunesmith accounts set-plan`): for tests of what Starter does not include (src/domain/plans.ts).
 */
export async function signUpOnPlan(
  browser: DashboardClient,
  store: { credentials: { findByEmail(email: string): Promise<{ account_id: string } | undefined> } } & {
    updateAccount(id: string, patch: { plan: PlanName }): Promise<unknown>;
  },
  email: string,
  plan: PlanName = 'developer',
): Promise<Page> {
  const page = await browser.signUp(email);
  const credential = await store.credentials.findByEmail(email);
  if (!credential) throw new Error(`no account was made for ${email}`);
  await store.updateAccount(credential.account_id, { plan });
  return page;
}

/**
 * Password hashing is bounded per process (src/dashboard/passwords.ts: a few at once, a few dozen waiting, the rest
 * told to retry), and a test file's many concurrent sign-ups on a loaded machine can exceed it, as a crowd of
 * people could. Such a refusal is retried as the page tells a person to: after a moment.
 */
async function whenPasswordChecksFree(attempt: () => Promise<Page>): Promise<Page> {
  for (let tries = 1; ; tries++) {
    const page = await attempt();
    if (page.status !== 429 || !page.text.includes('being checked right now') || tries === 30) return page;
    await new Promise((resolve) => setTimeout(resolve, 100 * tries));
  }
}
