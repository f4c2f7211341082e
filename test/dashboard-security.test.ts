/** The dashboard's security rules, piece by piece: cookie signing, CSRF tokens, passwords, throttling, escaping. */
import test from 'ava';
import { html } from '../src/dashboard/html.ts';
import { hashSecret, safeEqual } from '../src/ids.ts';
import { hashPassword, verifyPassword } from '../src/dashboard/passwords.ts';
import { FREE_FAILURES, SignInThrottle } from '../src/dashboard/sign-in-throttle.ts';
import { csrfToken, deriveKeys, readSessionCookie, signSessionCookie, validCsrf } from '../src/dashboard/tokens.ts';
import { wavPeaks } from '../src/dashboard/waveform.ts';
import { sineWav } from './helpers/app.ts';

const keys = deriveKeys('secret-one');
const now = new Date('2026-03-15T12:00:00Z');
const later = new Date(now.getTime() + 3600_000);
const sessionId = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

test('a signed session cookie reads back as its session id until it expires', (t) => {
  const cookie = signSessionCookie(keys.cookie, sessionId, later);
  t.is(readSessionCookie(keys.cookie, cookie, now), sessionId);
  t.is(readSessionCookie(keys.cookie, cookie, later), null);
});

test('a session cookie with a changed id, expiry or signature is refused', (t) => {
  const cookie = signSessionCookie(keys.cookie, sessionId, later);
  const [id, expires, sig] = cookie.split('.') as [string, string, string];
  t.is(readSessionCookie(keys.cookie, `${id.replace('A', 'B')}.${expires}.${sig}`, now), null);
  t.is(readSessionCookie(keys.cookie, `${id}.${Number(expires) + 86_400}.${sig}`, now), null);
  t.is(
    readSessionCookie(keys.cookie, `${id}.${expires}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`, now),
    null,
  );
  t.is(readSessionCookie(keys.cookie, 'garbage', now), null);
});

test('a cookie signed with another secret is refused', (t) => {
  const cookie = signSessionCookie(deriveKeys('secret-two').cookie, sessionId, later);
  t.is(readSessionCookie(keys.cookie, cookie, now), null);
});

test('the cookie key and the CSRF key differ, so one signature cannot stand in for the other', (t) => {
  t.notDeepEqual(keys.cookie, keys.csrf);
});

test('a CSRF token is valid only for the binding it was made for', (t) => {
  const token = csrfToken(keys.csrf, 'session-a');
  t.true(validCsrf(keys.csrf, 'session-a', token));
  t.false(validCsrf(keys.csrf, 'session-b', token));
  t.false(validCsrf(keys.csrf, 'session-a', ''));
  t.false(validCsrf(keys.csrf, 'session-a', undefined));
  t.false(validCsrf(deriveKeys('secret-two').csrf, 'session-a', token));
});

test('safeEqual is true only for the same text or bytes, whatever the lengths', (t) => {
  t.true(safeEqual('abc', 'abc'));
  t.false(safeEqual('abc', 'abd'));
  t.false(safeEqual('abc', 'abcd'));
  t.false(safeEqual('', 'a'));
  t.true(safeEqual(Buffer.from('xyz'), Buffer.from('xyz')));
  t.false(safeEqual(Buffer.from('xyz'), 'xyZ'));
});

test('hashSecret is the sha256 hex of the secret', (t) => {
  t.is(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('a password verifies against its scrypt hash and a wrong one does not', async (t) => {
  const stored = await hashPassword('correct horse battery');
  t.is(stored.algorithm, 'scrypt');
  t.false(JSON.stringify(stored).includes('correct horse'));
  t.true(await verifyPassword('correct horse battery', stored));
  t.false(await verifyPassword('correct horse batterY', stored));
});

test('the same password hashes differently each time (a salt per hash)', async (t) => {
  const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
  t.not(a.salt, b.salt);
  t.not(a.hash, b.hash);
});

test('failed sign-ins beyond the free ones make the email wait, longer each time', (t) => {
  const throttle = new SignInThrottle();
  let ms = now.getTime();
  for (let i = 0; i < FREE_FAILURES.email; i++) throttle.failed('a@example.com', '10.0.0.1', ms);
  t.is(throttle.waitSeconds('a@example.com', '10.0.0.2', ms), 0);
  throttle.failed('a@example.com', '10.0.0.1', ms);
  const first = throttle.waitSeconds('a@example.com', '10.0.0.2', ms);
  t.true(first >= 1);
  ms += first * 1000;
  t.is(throttle.waitSeconds('a@example.com', '10.0.0.2', ms), 0);
  throttle.failed('a@example.com', '10.0.0.1', ms);
  t.true(throttle.waitSeconds('a@example.com', '10.0.0.2', ms) > first);
  t.is(throttle.waitSeconds('b@example.com', '10.0.0.2', ms), 0, 'another email from another address is not slowed');
});

test('a successful sign-in clears the email count', (t) => {
  const throttle = new SignInThrottle();
  const ms = now.getTime();
  for (let i = 0; i < FREE_FAILURES.email; i++) throttle.failed('a@example.com', '10.0.0.1', ms);
  throttle.succeeded('a@example.com', '10.0.0.1');
  throttle.failed('a@example.com', '10.0.0.1', ms);
  t.is(throttle.waitSeconds('a@example.com', '10.0.0.9', ms), 0);
});

test('an attempt counts as failed from its start, and a success gives the address its attempt back', (t) => {
  const throttle = new SignInThrottle();
  const ms = now.getTime();
  for (let i = 0; i <= FREE_FAILURES.email; i++) t.is(throttle.begin('a@example.com', '10.0.0.1', ms), 0);
  t.true(throttle.begin('a@example.com', '10.0.0.2', ms) > 0, 'held back before any check has finished');
  for (let i = 0; i <= FREE_FAILURES.address + 5; i++) {
    t.is(throttle.begin(`ok${i}@example.com`, '10.0.0.3', ms), 0);
    throttle.succeeded(`ok${i}@example.com`, '10.0.0.3');
  }
  t.is(
    throttle.waitSeconds('fresh@example.com', '10.0.0.3', ms),
    0,
    'successful sign-ins from one address never hold it back',
  );
});

test('many failures from one address slow that address for every email', (t) => {
  const throttle = new SignInThrottle();
  const ms = now.getTime();
  for (let i = 0; i <= FREE_FAILURES.address; i++) throttle.failed(`user${i}@example.com`, '10.0.0.1', ms);
  t.true(throttle.waitSeconds('fresh@example.com', '10.0.0.1', ms) > 0);
  t.is(throttle.waitSeconds('fresh@example.com', '10.0.0.2', ms), 0);
});

test('html escapes interpolated text but not nested html', (t) => {
  const prompt = '<script>alert(1)</script> & "quotes"';
  const out = html`<p title="${prompt}">${prompt}</p>${html`<b>${'<i>'}</b>`}`.toString();
  t.is(
    out,
    '<p title="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p><b>&lt;i&gt;</b>',
  );
});

test('waveform peaks follow the WAV level', (t) => {
  const peaks = wavPeaks(sineWav(1), 20);
  t.is(peaks.length, 20);
  for (const peak of peaks) t.true(Math.abs(peak - 8000 / 32768) < 0.01);
});
