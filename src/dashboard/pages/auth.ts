/** Sign up, sign in (with a password or a one-time link) and sign out. */
import { EMAIL_MAX_CHARS, isEmailAddress } from '../../email.ts';
import { html } from '../html.ts';
import type { AppContext } from '../../http/types.ts';
import type { Account } from '../../domain/model.ts';
import { EmailTakenError } from '../../domain/errors.ts';
import { normalizeEmail } from '../../email.ts';
import type { DashboardDeps } from '../deps.ts';
import {
  endSession,
  preSessionCsrf,
  readCheckedForm,
  seeOther,
  sendHtml,
  startSession,
  viewerOf,
  type Viewer,
} from '../http.ts';
import { showOverview } from './overview.ts';
import { decoyHash, hashPassword, PasswordChecksBusyError, verifyPassword } from '../passwords.ts';
import { plainPage } from '../views/layout.ts';
import { csrfField, describedBy, fieldError, formError, type FieldErrors } from '../views/forms.ts';

export const PASSWORD_CHARS = { min: 10, max: 200 } as const;
const SIGN_UPS_PER_HOUR = 20;

function authForm(kind: 'signin' | 'signup', csrf: string, email: string, errors: FieldErrors) {
  const signup = kind === 'signup';
  return plainPage(
    signup ? 'Create your account' : 'Sign in',
    html`<h1>${signup ? 'Create your account' : 'Sign in to Tunesmith'}</h1>
<p class="muted">${signup ? 'Start on the Starter plan: 10 tracks a month.' : 'Welcome back. Sign in to manage keys and make music.'}</p>
${formError(errors)}
<form method="post" action="/${kind}" class="stack" novalidate>
  ${csrfField(csrf)}
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="${EMAIL_MAX_CHARS}" value="${email}"${describedBy(errors, 'email')}>
  ${fieldError(errors, 'email')}
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="${signup ? 'new-password' : 'current-password'}" required${signup ? html` minlength="${PASSWORD_CHARS.min}"` : ''} maxlength="${PASSWORD_CHARS.max}"${describedBy(errors, 'password')}>
  ${signup ? html`<p class="hint">At least ${PASSWORD_CHARS.min} characters.</p>` : ''}
  ${fieldError(errors, 'password')}
  <button type="submit" class="button wide">${signup ? 'Create account' : 'Sign in'}</button>
</form>
<p class="switch">${signup ? html`Already have an account? <a href="/signin">Sign in</a>` : html`New here? <a href="/signup">Create an account</a>`}</p>`,
  );
}

export function showSignIn(deps: DashboardDeps) {
  return async (ctx: AppContext) => {
    if (await viewerOf(ctx, deps)) return seeOther(ctx, '/');
    sendHtml(ctx, authForm('signin', preSessionCsrf(ctx, deps), '', {}));
  };
}

export function showSignUp(deps: DashboardDeps) {
  return async (ctx: AppContext) => {
    if (await viewerOf(ctx, deps)) return seeOther(ctx, '/');
    sendHtml(ctx, authForm('signup', preSessionCsrf(ctx, deps), '', {}));
  };
}

export function signIn(deps: DashboardDeps) {
  return async (ctx: AppContext) => {
    const form = await readCheckedForm(ctx, deps, undefined);
    const email = normalizeEmail(form.get('email') ?? '').slice(0, EMAIL_MAX_CHARS);
    const password = form.get('password') ?? '';
    const again = (status: number, message: string) =>
      sendHtml(ctx, authForm('signin', preSessionCsrf(ctx, deps), email, { '': message }), status);
    const nowMs = deps.services.now().getTime();
    const wait = deps.throttle.begin(email, ctx.ip, nowMs);
    if (wait > 0) return again(429, `Too many failed sign-ins. Wait ${wait} s, then try again.`);

    const credential = await deps.credentials.findByEmail(email);
    let matches: boolean;
    try {
      // An unknown email costs the same hash as a known one, so timing does not tell which emails exist.
      matches = await verifyPassword(
        password.slice(0, PASSWORD_CHARS.max),
        credential?.password ?? (await decoyHash()),
      );
    } catch (error) {
      if (error instanceof PasswordChecksBusyError) return again(429, error.message);
      throw error;
    }
    if (!credential || !matches)
      return again(401, 'That email and password do not match an account. Check both and try again.');
    deps.throttle.succeeded(email, ctx.ip);
    await startSession(ctx, deps, credential.account_id);
    seeOther(ctx, '/');
  };
}

export function signUp(deps: DashboardDeps) {
  return async (ctx: AppContext) => {
    const form = await readCheckedForm(ctx, deps, undefined);
    const email = normalizeEmail(form.get('email') ?? '');
    const password = form.get('password') ?? '';
    const errors = credentialProblems(email, password);
    const again = (status: number, found: FieldErrors) =>
      sendHtml(ctx, authForm('signup', preSessionCsrf(ctx, deps), email.slice(0, EMAIL_MAX_CHARS), found), status);
    if (Object.keys(errors).length > 0) return again(400, errors);
    if (!deps.signUps.take(ctx.ip, SIGN_UPS_PER_HOUR, deps.services.now().getTime()).allowed) {
      return again(429, { '': 'Too many accounts were created from this address in the last hour. Try again later.' });
    }

    const passwordHash = await hashUnlessBusy(password);
    if (!passwordHash) return again(429, { '': new PasswordChecksBusyError().message });
    let account: Account;
    try {
      account = await deps.services.accounts.signUp(email, passwordHash);
    } catch (error) {
      if (error instanceof EmailTakenError) return again(409, { email: error.message });
      throw error;
    }
    await startSession(ctx, deps, account.id);
    seeOther(ctx, '/');
  };
}

/** A hash of the password, or undefined when too many are being computed right now. */
async function hashUnlessBusy(password: string) {
  try {
    return await hashPassword(password);
  } catch (error) {
    if (error instanceof PasswordChecksBusyError) return undefined;
    throw error;
  }
}

/** What is wrong with an email and password offered for a new sign-in, by field. */
export function credentialProblems(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!isEmailAddress(email)) errors.email = 'Enter an email address like you@example.com.';
  if ([...password].length < PASSWORD_CHARS.min)
    errors.password = `Choose a password of at least ${PASSWORD_CHARS.min} characters.`;
  else if ([...password].length > PASSWORD_CHARS.max)
    errors.password = `Choose a password of at most ${PASSWORD_CHARS.max} characters.`;
  return errors;
}

/**
 * POST /account/credentials — an account made without a password (the first-start one, signed in by its
 * link) sets an email and password, so it can sign in again once the link and the session are gone.
 */
export function setCredentials(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const form = await readCheckedForm(ctx, deps, viewer);
    if (await deps.services.accounts.hasPassword(viewer.account.id)) return seeOther(ctx, '/');
    const email = normalizeEmail(form.get('email') ?? '');
    const password = form.get('password') ?? '';
    const errors = credentialProblems(email, password);
    const passwordHash = Object.keys(errors).length === 0 ? await hashUnlessBusy(password) : undefined;
    if (Object.keys(errors).length === 0 && !passwordHash) errors.password = new PasswordChecksBusyError().message;
    if (passwordHash) {
      try {
        await deps.services.accounts.setPassword(viewer.account.id, email, passwordHash);
        return seeOther(ctx, '/?signin=saved');
      } catch (error) {
        if (!(error instanceof EmailTakenError)) throw error;
        errors.email = error.message;
      }
    }
    return showOverview(deps, { email: email.slice(0, EMAIL_MAX_CHARS), errors })(ctx, viewer);
  };
}

/** GET /signin/:token — the one-time link printed at first start. */
export function signInWithLink(deps: DashboardDeps) {
  return async (ctx: AppContext & { params: Record<string, string> }) => {
    const token = ctx.params.token ?? '';
    const accountId = /^[A-Za-z0-9_-]{16,64}$/.test(token)
      ? await deps.credentials.redeemSignInToken(token, deps.services.now())
      : undefined;
    if (!accountId || !(await deps.services.accounts.get(accountId))) {
      return sendHtml(
        ctx,
        authForm('signin', preSessionCsrf(ctx, deps), '', {
          '': 'This sign-in link has already been used or has expired. Sign in with your email and password.',
        }),
        410,
      );
    }
    await startSession(ctx, deps, accountId);
    seeOther(ctx, '/');
  };
}

export function signOut(deps: DashboardDeps) {
  return async (ctx: AppContext) => {
    const viewer = await viewerOf(ctx, deps);
    if (viewer) {
      await readCheckedForm(ctx, deps, viewer);
      await endSession(ctx, deps, viewer);
    }
    seeOther(ctx, '/signin');
  };
}
