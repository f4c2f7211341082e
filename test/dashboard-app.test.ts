/** The dashboard inside the real app: sessions, CSRF, sign-in throttling, isolation, escaping, headers, keys, playground. */
import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { startApp, type TestApp } from './helpers/app.ts';
import { PostgresRepository } from '../src/store/postgres/index.ts';
import { DashboardClient } from './helpers/dashboard.ts';
import { FREE_FAILURES } from '../src/dashboard/sign-in-throttle.ts';

const XSS = '<script>alert(1)</script>';

test('sign-up creates a Starter account and signs it in with an HttpOnly, SameSite=Lax cookie that expires', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  const res = await browser.signUp('Ada@Example.com');
  t.is(res.status, 303);
  t.is(res.location, '/');
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('ts_session='))!;
  t.regex(setCookie, /httponly/i);
  t.regex(setCookie, /samesite=lax/i);
  t.regex(setCookie, /expires=/i);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'ada@example.com');
  t.is(account?.plan, 'starter');
  const overview = await browser.get('/');
  t.is(overview.status, 200);
  t.regex(overview.text, /ada@example\.com/);
});

test('pages send a CSP that allows only the app itself, and X-Frame-Options DENY', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('headers@example.com');
  for (const path of ['/signin', '/', '/keys', '/generations', '/playground', '/docs', '/webhooks']) {
    const res = await browser.get(path);
    const csp = res.headers.get('content-security-policy') ?? '';
    t.regex(csp, /default-src 'self'/, path);
    t.regex(csp, /script-src 'self'(;|$)/, path);
    t.false(csp.includes('unsafe-inline'), path);
    t.is(res.headers.get('x-frame-options'), 'DENY', path);
    t.false(
      /<script>(?!<\/script>)|\sstyle="|\son[a-z]+="/.test(res.text),
      `${path} has inline script, style or handler`,
    );
  }
});

test('a browser on a wrong dashboard URL gets a page saying so; the API and scripts keep the JSON error', async (t) => {
  const app = await startApp(t);
  const asBrowser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  const page = await fetch(`${app.url}/generatons/<b>x</b>`, { headers: asBrowser });
  t.is(page.status, 404);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  const text = await page.text();
  t.regex(text, /<h1>Page not found<\/h1>/);
  t.regex(
    text,
    /There is no page at <code>\/generatons\/%3Cb%3Ex%3C\/b%3E<\/code>|There is no page at <code>\/generatons\/&lt;b&gt;/,
  );
  t.regex(text, /href="\/">Back to the dashboard/);
  const script = await fetch(`${app.url}/generatons`);
  t.is(script.status, 404);
  t.is(((await script.json()) as { error: { code: string } }).error.code, 'route_not_found');
  const api = await fetch(`${app.url}/v1/nothing`, { headers: asBrowser });
  t.regex(api.headers.get('content-type') ?? '', /json/);
  t.is((await fetch(`${app.url}/healthz`, { headers: asBrowser })).status, 200);
});

test('the plan cards name every format a track comes in', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('formats@example.com');
  const overview = await browser.get('/');
  t.regex(overview.text, /WAV, MP3, Opus, FLAC and MIDI/);
  t.notRegex(overview.text, /WAV and MIDI/);
});

test('the plan cards say which plan has dedicated render workers', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('workers@example.com');
  const overview = await browser.get('/');
  t.is(overview.text.match(/Dedicated render workers/g)?.length, 1);
  t.is(overview.text.match(/Shared render workers/g)?.length, 2);
});

test('a signed-out visitor is sent to sign in, and data endpoints answer 401', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  t.is((await browser.get('/keys')).location, '/signin');
  t.is((await browser.get('/generations/gen_x/status.json')).status, 401);
});

test('a wrong password is refused, and the right one signs in', async (t) => {
  const app = await startApp(t);
  await new DashboardClient(app.url).signUp('bob@example.com', 'bob password 123');
  const browser = new DashboardClient(app.url);
  const wrong = await browser.signIn('bob@example.com', 'not the password');
  t.is(wrong.status, 401);
  t.regex(wrong.text, /do not match an account/);
  t.is((await browser.signIn('BOB@example.com', 'bob password 123')).status, 303);
  t.is((await browser.get('/')).status, 200);
});

test('repeated failed sign-ins are refused for a while, even with the right password, then allowed again', async (t) => {
  const app = await startApp(t);
  await new DashboardClient(app.url).signUp('carol@example.com', 'carol password 1');
  const browser = new DashboardClient(app.url);
  for (let i = 0; i < 4; i++) await browser.signIn('carol@example.com', 'guess');
  const blocked = await browser.signIn('carol@example.com', 'carol password 1');
  t.is(blocked.status, 429);
  t.regex(blocked.text, /Too many failed sign-ins\. Wait \d+ s/);
  app.clock.advance(60_000);
  t.is((await browser.signIn('carol@example.com', 'carol password 1')).status, 303);
});

test('parallel wrong-password sign-ins for one email: only the free attempts and one more are checked, the rest refused', async (t) => {
  const app = await startApp(t);
  await new DashboardClient(app.url).signUp('dora@example.com', 'dora password 1');
  const browsers = Array.from({ length: 12 }, () => new DashboardClient(app.url));
  await Promise.all(browsers.map((b) => b.get('/signin')));
  const answers = await Promise.all(
    browsers.map((b, i) => b.post('/signin', { email: 'dora@example.com', password: `guess ${i}` })),
  );
  const checked = answers.filter((a) => a.status === 401).length;
  t.true(checked <= FREE_FAILURES.email + 1, `${checked} guesses were checked`);
  t.is(answers.filter((a) => a.status === 429).length, answers.length - checked);
  // Refused by the email's throttle, or (on a loaded machine, while the allowed guesses are still hashing) by
  // the cap on sign-ins being checked at once: both are refusals that say why.
  for (const refused of answers.filter((a) => a.status === 429))
    t.regex(refused.text, /Too many failed sign-ins|Too many sign-ins are being checked/);
});

test("a form without the CSRF token, with another session's token, or from another origin is refused", async (t) => {
  const app = await startApp(t);
  const alice = new DashboardClient(app.url);
  await alice.signUp('alice@example.com');
  await alice.get('/keys');
  const mallory = new DashboardClient(app.url);
  await mallory.signUp('mallory@example.com');
  await mallory.get('/keys');

  t.is((await alice.post('/keys', { name: 'x', _csrf: '' })).status, 403);
  t.is((await alice.post('/keys', { name: 'x', _csrf: mallory.csrf })).status, 403);
  t.is((await alice.post('/keys', { name: 'x' }, { Origin: 'https://evil.example' })).status, 403);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'alice@example.com')!;
  t.is((await app.store.listKeys(account.id)).length, 0);
  t.is((await alice.post('/keys', { name: 'ok' })).status, 201);
});

test('the sign-up form needs the CSRF token bound to its pre-session cookie', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.get('/signup');
  browser.cookies.set('ts_pre', 'x'.repeat(32));
  t.is((await browser.post('/signup', { email: 'dan@example.com', password: 'a long enough password' })).status, 403);
  t.is((await app.store.listAccounts()).length, 0);
});

test('signing out ends the session: the old cookie no longer works', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('erin@example.com');
  await browser.get('/');
  const cookie = browser.cookies.get('ts_session')!;
  const out = await browser.post('/signout', {});
  t.is(out.location, '/signin');
  t.false(browser.cookies.has('ts_session'));
  browser.cookies.set('ts_session', cookie);
  t.is((await browser.get('/')).location, '/signin');
});

test('a session expires with its cookie', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('fay@example.com');
  t.is((await browser.get('/')).status, 200);
  app.clock.advance(8 * 24 * 3600 * 1000);
  t.is((await browser.get('/')).location, '/signin');
});

test('a tampered session cookie is refused', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('gus@example.com');
  const [id, expires, sig] = browser.cookies.get('ts_session')!.split('.');
  browser.cookies.set('ts_session', `${id}.${Number(expires) + 1000}.${sig}`);
  t.is((await browser.get('/')).location, '/signin');
});

test('a second sign-up with the same email is refused next to the email field', async (t) => {
  const app = await startApp(t);
  await new DashboardClient(app.url).signUp('hal@example.com');
  const again = await new DashboardClient(app.url).signUp('HAL@example.com');
  t.is(again.status, 409);
  t.regex(again.text, /class="field-error" id="email-error"[^>]*>An account with this email already exists/);
});

test('parallel sign-ups with one email make one account; the others are told the email is taken', async (t) => {
  const app = await startApp(t);
  const answers = await Promise.all(
    Array.from({ length: 4 }, () => new DashboardClient(app.url).signUp('race@example.com')),
  );
  t.deepEqual(answers.map((a) => a.status).sort(), [303, 409, 409, 409]);
  t.is((await app.store.listAccounts()).filter((a) => a.email === 'race@example.com').length, 1);
});

test('a sign-up whose sign-in details cannot be saved leaves no account behind, and the email free', async (t) => {
  const app = await startApp(t);
  const unblock = await blockCredentialSaves(app);
  t.is((await new DashboardClient(app.url).signUp('ivan@example.com')).status, 500);
  t.deepEqual(
    (await app.store.listAccounts()).filter((a) => a.email === 'ivan@example.com'),
    [],
  );
  await unblock();
  t.is((await new DashboardClient(app.url).signUp('ivan@example.com')).status, 303);
  t.is((await app.store.listAccounts()).filter((a) => a.email === 'ivan@example.com').length, 1);
});

test('the store deletes only an account with no keys and no generations (the undo of a failed sign-up)', async (t) => {
  const app = await startApp(t);
  const { account } = await app.account('starter');
  await t.throwsAsync(app.store.deleteAccount(account.id), { instanceOf: TypeError });
  const bare = await app.store.createAccount({ plan: 'starter' });
  await app.store.deleteAccount(bare.id);
  t.is(await app.store.getAccount(bare.id), undefined);
  t.truthy(await app.store.getAccount(account.id));
});

test('a new key is shown once, works with the API, and after revocation gets 401', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('ivy@example.com');
  await browser.get('/keys');
  const created = await browser.post('/keys', { name: 'ci' });
  const key = /id="new-key">([^<]+)</.exec(created.text)![1]!;
  t.regex(key, /^ts_live_/);
  t.is((await app.call(key, '/v1/account')).status, 200);
  const list = await browser.get('/keys');
  t.false(list.text.includes(key));
  t.true(list.text.includes(key.slice(0, 12)));
  const keyId = /action="\/keys\/(key_[^/]+)\/revoke"/.exec(list.text)![1]!;
  t.is((await browser.post(`/keys/${keyId}/revoke`, {})).location, '/keys?revoked=1');
  t.is((await app.call(key, '/v1/account')).status, 401);
});

test("one account never sees or touches another account's keys and generations", async (t) => {
  const app = await startApp(t);
  const { account: other, key: otherKey } = await app.account('developer');
  const made = await (
    await app.call(otherKey, '/v1/generate', { json: { prompt: 'private tune of the other account', duration: 30 } })
  ).json();
  await app.jobs.complete(made.id);
  const otherKeyId = (await app.store.listKeys(other.id))[0]!.id;

  const browser = new DashboardClient(app.url);
  const signedUp = await browser.signUp('jo@example.com');
  t.is(signedUp.status, 303, signedUp.text);
  const pages = await Promise.all(['/', '/keys', '/generations', '/playground'].map((p) => browser.get(p)));
  // Signed in throughout: a page sent back to sign in would hide the other account's data for the wrong reason.
  t.deepEqual(
    pages.map((page) => page.status),
    [200, 200, 200, 200],
  );
  for (const page of pages) {
    t.false(page.text.includes('private tune'));
    t.false(page.text.includes(made.id));
    t.false(page.text.includes(otherKeyId));
  }
  t.is((await browser.get(`/generations/${made.id}/status.json`)).status, 404);
  t.is((await browser.get(`/generations/${made.id}/waveform.svg`)).status, 404);
  t.false((await browser.get(`/playground?id=${made.id}`)).text.includes('private tune'));
  await browser.get('/keys');
  t.is((await browser.post(`/keys/${otherKeyId}/revoke`, {})).status, 404);
  t.is((await app.call(otherKey, '/v1/account')).status, 200);
});

test('a prompt of <script> shows as text in the history and the playground', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('kim@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: XSS, duration: '30', style: '', seed: '' });
  t.is(res.status, 303);
  const id = /id=(gen_[A-Za-z0-9_-]+)/.exec(res.location!)![1]!;
  await app.jobs.complete(id, XSS);
  for (const page of [await browser.get('/generations'), await browser.get(`/playground?id=${id}`)]) {
    t.false(page.text.includes(XSS));
    t.true(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  }
});

test('a completed generation shows a player, a waveform and downloads that work', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('lee@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  const pending = await browser.get('/generations');
  t.regex(pending.text, new RegExp(`data-poll="/generations/${id}/status.json"`));
  const status = JSON.parse((await browser.get(`/generations/${id}/status.json`)).text);
  t.like(status, { id, status: 'processing', queue_position: 0 });
  t.regex(status.progress_text, /Rendering 25%/);

  await app.jobs.complete(id);
  const done = await browser.get(`/generations/${id}`);
  const audio = /<audio controls preload="metadata" src="([^"]+)"/.exec(done.text)![1]!.replaceAll('&amp;', '&');
  const wav = await fetch(app.url + audio, { headers: { Range: 'bytes=0-11' } });
  t.is(wav.status, 206);
  t.is(Buffer.from(await wav.arrayBuffer()).toString('latin1', 0, 4), 'RIFF');
  const svg = await browser.get(`/generations/${id}/waveform.svg`);
  t.is(svg.headers.get('content-type'), 'image/svg+xml');
  t.regex(svg.text, /^<svg[^>]*>.*<rect/);
  t.regex(done.text, /Download MIDI/);
  t.regex(done.text, /<dt>Tempo<\/dt><dd>80 BPM<\/dd>/);
});

test('the playground shows a validation error next to the field at fault', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('max@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'ok', duration: '10' });
  t.is(res.status, 400);
  t.regex(res.text, /id="duration-error"[^>]*>&quot;duration&quot; must be between 30 and 180 seconds/);
  t.regex(res.text, /id="duration"[^>]*aria-invalid="true"/);
  const empty = await browser.post('/playground', { prompt: '   ', duration: '30' });
  t.regex(empty.text, /id="prompt-error"/);
});

test('the playground counts against the same monthly quota as the API', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('ned@example.com');
  const account = (await app.store.listAccounts()).find((a) => a.email === 'ned@example.com')!;
  await app.store.updateAccount(account.id, { monthly: 2 });
  const { key } = await app.store.createKey(account.id, 'k');
  await browser.get('/playground');
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'first', duration: 30 } })).status, 202);
  t.is((await browser.post('/playground', { prompt: 'second', duration: '30' })).status, 303);
  const over = await browser.post('/playground', { prompt: 'third', duration: '30' });
  t.is(over.status, 402);
  t.regex(over.text, /class="alert alert-error"[^>]*>The monthly quota of 2 generations is used up/);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'fourth', duration: 30 } })).status, 402);
});

test('the playground and the API share one rate-limit bucket', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('ora@example.com');
  const account = (await app.store.listAccounts()).find((a) => a.email === 'ora@example.com')!;
  await app.store.updateAccount(account.id, { rpm: 3 });
  const { key } = await app.store.createKey(account.id, 'k');
  await browser.get('/playground');
  t.is((await app.call(key, '/v1/account')).status, 200);
  t.is((await app.call(key, '/v1/account')).status, 200);
  t.is((await browser.post('/playground', { prompt: 'one', duration: '30' })).status, 303);
  const limited = await browser.post('/playground', { prompt: 'two', duration: '30' });
  t.is(limited.status, 429);
  t.regex(limited.text, /may make 3 requests per minute/);
  t.is((await app.call(key, '/v1/account')).status, 429);
});

test('the docs page renders every API route with curl examples for this server', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('oli@example.com');
  const docs = await browser.get('/docs');
  for (const path of ['/v1/generate', '/v1/generation/{id}', '/v1/generations', '/v1/styles', '/v1/account'])
    t.true(docs.text.includes(`<code>${path}</code>`), path);
  t.true(docs.text.includes(`curl -s -X POST ${app.url}/v1/generate`));
  t.false(/ts_live_[A-Za-z0-9]/.test(docs.text), 'no key in the page');
});

test('the webhooks page says Starter needs the Developer plan', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('pat@example.com');
  t.regex((await browser.get('/webhooks')).text, /Webhooks need the Developer plan/);
});

test('a task in progress can be cancelled from the generations page', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('cal@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  const list = await browser.get('/generations');
  t.regex(list.text, new RegExp(`action="/generations/${id}/cancel"`));
  t.is((await browser.post(`/generations/${id}/cancel`, {})).location, '/generations?done=cancelled');
  t.regex(
    (await browser.get('/generations?done=cancelled')).text,
    /The generation is cancelled\.[\s\S]*The generation was cancelled\./,
  );
});

test('a finished track can be deleted from the generations page, with its audio', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('del@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  const done = await app.jobs.complete(id);
  t.regex((await browser.get('/generations')).text, new RegExp(`action="/generations/${id}/delete"`));
  t.is((await browser.post(`/generations/${id}/delete`, {})).location, '/generations?done=deleted');
  t.false((await browser.get('/generations')).text.includes(id));
  t.false(existsSync(join(app.store.dataDir, done.files!.wav)));
});

test("another account's task cannot be cancelled from the dashboard", async (t) => {
  const app = await startApp(t);
  const { key: otherKey } = await app.account('developer');
  const made = await (await app.call(otherKey, '/v1/generate', { json: { prompt: 'theirs', duration: 30 } })).json();
  const browser = new DashboardClient(app.url);
  await browser.signUp('eve@example.com');
  await browser.get('/generations');
  t.is((await browser.post(`/generations/${made.id}/cancel`, {})).status, 404);
  t.is((await app.call(otherKey, `/v1/generation/${made.id}`)).status, 200);
});

test('the status JSON the page follows a task with is a long poll: it answers when the task finishes', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('lp@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  const polled = browser.get(`/generations/${id}/status.json?wait=30`);
  // Completed whether the poll is already waiting or not yet: either way its answer is the new status.
  await app.jobs.complete(id);
  t.is(JSON.parse((await polled).text).status, 'completed');
});

test('a track has its own page, with what the engine understood and a delete button', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('page@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  await app.jobs.complete(id, 'Rainy Night');
  const track = await browser.get(`/generations/${id}`);
  t.is(track.status, 200);
  t.regex(track.text, /<title>Rainy Night/);
  t.regex(track.text, /What the engine understood[\s\S]*Meter 4\/4/);
  t.regex(track.text, new RegExp(`action="/generations/${id}/delete"`));
  t.regex(track.text, /waveform\.svg/);
});

test("a track's page lists the engine's warnings", async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('warned@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'kazoo jam', duration: '30' })).location!,
  )![1]!;
  const done = await app.jobs.complete(id);
  await app.store.transaction((tx) =>
    tx.updateGeneration(id, {
      metadata: { ...done.metadata, warnings: ['"kazoo" is not played: the sound bank has no kazoo.'] },
    }),
  );
  const track = await browser.get(`/generations/${id}`);
  t.regex(track.text, /<ul class="warnings"><li>&quot;kazoo&quot; is not played/);
});

test("another account's track page is a 404", async (t) => {
  const app = await startApp(t);
  const { key: otherKey } = await app.account('developer');
  const made = await (await app.call(otherKey, '/v1/generate', { json: { prompt: 'theirs', duration: 30 } })).json();
  const browser = new DashboardClient(app.url);
  await browser.signUp('nosy@example.com');
  t.is((await browser.get(`/generations/${made.id}`)).status, 404);
});

test('the history can be searched by prompt text, in any case', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('find@example.com');
  await browser.get('/playground');
  await browser.post('/playground', { prompt: 'Rainy lofi piano', duration: '30' });
  await browser.get('/playground');
  await browser.post('/playground', { prompt: 'epic battle theme', duration: '30' });
  const found = await browser.get('/generations?q=RAINY');
  t.true(found.text.includes('Rainy lofi piano'));
  t.false(found.text.includes('epic battle theme'));
  t.regex(found.text, /1–1 of 1/);
});

test('the quota error on the playground gives the reset as a readable date', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('quota@example.com');
  const account = (await app.store.listAccounts()).find((a) => a.email === 'quota@example.com')!;
  await app.store.updateAccount(account.id, { plan: 'enterprise', monthly: 0 });
  await browser.get('/playground');
  const over = await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' });
  t.regex(over.text, /resets on 2026-04-01 at 00:00 UTC/);
  t.false(/\d{4}-\d\d-\d\dT\d\d:\d\d/.test(over.text));
});

test('no page shows an account the operator-only CLI, nor promises about billing', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  const signup = await browser.get('/signup');
  t.false(/no card|credit card|billing/i.test(signup.text));
  await browser.signUp('plain@example.com');
  for (const path of ['/', '/webhooks']) t.false((await browser.get(path)).text.includes('npm run'), path);
});

// Serial, so it signs up before the others: one more sign-up among this file's concurrent ones can find the
// password hashing busy (a 429), which is not what this test is about.
test.serial('the waveform of a track whose WAV is gone from the disk is a 404, as its download is', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await browser.signUp('gone@example.com');
  await browser.get('/playground');
  const id = /id=(gen_[^&]+)/.exec(
    (await browser.post('/playground', { prompt: 'rainy lofi', duration: '30' })).location!,
  )![1]!;
  await app.jobs.complete(id);
  const account = (await app.store.listAccounts()).find((a) => a.email === 'gone@example.com')!;
  await rm(join(app.store.dataDir, (await app.store.getGeneration(account.id, id))!.files!.wav));
  const svg = await browser.get(`/generations/${id}/waveform.svg`);
  t.is(svg.status, 404);
  t.is(JSON.parse(svg.text).error.code, 'file_not_found');
});

/** Makes saving sign-in details fail for real until the returned function is called. */
async function blockCredentialSaves(app: TestApp): Promise<() => Promise<void>> {
  if (app.store instanceof PostgresRepository) {
    const { pool } = app.store;
    await pool.query('ALTER TABLE credentials ADD CONSTRAINT test_blocker CHECK (false) NOT VALID');
    return async () => void (await pool.query('ALTER TABLE credentials DROP CONSTRAINT test_blocker'));
  }
  // A directory where the credentials file goes makes its atomic rename fail.
  const blocker = join(app.dataDir, 'dashboard.json');
  await mkdir(blocker);
  return () => rmdir(blocker);
}
