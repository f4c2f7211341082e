/**
 * The dashboard's webhooks page in the real app with the real webhooks module and job queue: plans,
 * endpoints, the signing secret, the delivery log with resend, isolation between accounts and CSRF.
 */
import test, { type ExecutionContext } from 'ava';
import type { Account } from '../src/domain/model.ts';
import type { Resolver } from '../src/domain/webhooks/url-safety.ts';
import { DashboardClient } from './helpers/dashboard.ts';
import { startReceiver, startWebhookApp, until, type WebhookApp, type WebhookAppOptions } from './helpers/webhooks.ts';

/** Names for the URL checks: one public, one that resolves to loopback. */
const resolve: Resolver = async (hostname) =>
  hostname === 'hooks.example.com'
    ? [{ address: '93.184.216.34', family: 4 }]
    : hostname === 'sneaky.example.com'
      ? [{ address: '127.0.0.1', family: 4 }]
      : [];

/** A signed-in dashboard user on `plan` (sign-up makes Starter; the operator's set-plan is a store update). */
async function signedIn(
  app: WebhookApp,
  email: string,
  plan: Account['plan'] = 'developer',
): Promise<{ browser: DashboardClient; account: Account }> {
  const browser = new DashboardClient(app.url);
  await browser.signUp(email);
  let account = (await app.store.listAccounts()).find((a) => a.email === email)!;
  if (plan !== account.plan) account = await app.store.updateAccount(account.id, { plan });
  await browser.get('/webhooks');
  return { browser, account };
}

async function start(t: ExecutionContext, options: WebhookAppOptions = {}) {
  return startWebhookApp(t, { resolve, ...options });
}

const addForm = (url: string, events = ['generation.completed', 'generation.failed']): [string, string][] => [
  ['url', url],
  ...events.map((e): [string, string] => ['events', e]),
];

/** The ids of the endpoint rows and the delivery rows on a page. */
const rows = (text: string, kind: 'endpoint' | 'delivery'): string[] =>
  [...text.matchAll(new RegExp(`data-${kind}="([^"]+)"`, 'g'))].map((m) => m[1]!);

test('a Starter account sees what the Developer plan gives, and its webhook forms are refused', async (t) => {
  const app = await start(t);
  const { browser, account } = await signedIn(app, 'starter@example.com', 'starter');
  const shown = await browser.get('/webhooks');
  t.is(shown.status, 200);
  t.regex(shown.text, /Webhooks need the Developer plan/);
  t.true(shown.text.includes(`ask them, giving your account id <code>${account.id}</code>`));
  t.false(shown.text.includes('npm run'), 'no operator command is shown to the account');
  t.false(shown.text.includes('whsec_'), 'no secret is made for a Starter account');
  t.is((await browser.post('/webhooks/endpoints', addForm('https://hooks.example.com/a'))).status, 403);
  t.is((await browser.post('/webhooks/secret/rotate', {})).status, 403);
  await app.store.updateAccount(account.id, { plan: 'developer' });
  t.is((await app.webhooks.service.listEndpoints({ ...account, plan: 'developer' })).length, 0);
});

test('a Developer adds an endpoint (a refused URL says why next to the field), sees it listed and deletes it', async (t) => {
  const app = await start(t, { allowPrivate: false });
  const { browser, account } = await signedIn(app, 'dev@example.com');

  const loopback = await browser.post('/webhooks/endpoints', addForm('https://sneaky.example.com/hook'));
  t.is(loopback.status, 400);
  t.regex(loopback.text, /id="url-error"[^>]*>[^<]*refused: [^<]*127\.0\.0\.1[^<]*loopback/);
  t.true(loopback.text.includes('value="https://sneaky.example.com/hook"'), 'the URL stays in the field');
  const credentials = await browser.post('/webhooks/endpoints', addForm('https://user:pw@hooks.example.com/hook'));
  t.regex(credentials.text, /id="url-error"[^>]*>[^<]*must not contain a user name or password/);
  const noEvents = await browser.post('/webhooks/endpoints', addForm('https://hooks.example.com/hook', []));
  t.regex(noEvents.text, /id="events-error"[^>]*>Choose at least one event/);
  t.is((await app.webhooks.service.listEndpoints(account)).length, 0);

  const added = await browser.post('/webhooks/endpoints', [
    ...addForm('https://hooks.example.com/hook', ['generation.processing', 'generation.completed']),
    ['description', 'game server'],
  ]);
  t.is(added.status, 303);
  const [endpoint] = await app.webhooks.service.listEndpoints(account);
  t.deepEqual(endpoint?.events, ['generation.processing', 'generation.completed']);
  const listed = await browser.get(added.location!.replace(/#.*/, ''));
  t.regex(listed.text, /The endpoint is added/);
  t.deepEqual(rows(listed.text, 'endpoint'), [endpoint!.id]);
  t.true(listed.text.includes('<code>https://hooks.example.com/hook</code>'));
  t.true(listed.text.includes('game server'));
  t.regex(listed.text, /Yes, delete it/, 'deleting asks first');

  const deleted = await browser.post(`/webhooks/endpoints/${endpoint!.id}/delete`, {});
  t.is(deleted.status, 303);
  t.deepEqual(rows((await browser.get('/webhooks')).text, 'endpoint'), []);
  t.is((await app.webhooks.service.listEndpoints(account)).length, 0);
});

test('the secret is shown masked with reveal and copy; a rotation shows the new one and until when the old one signs', async (t) => {
  const app = await start(t);
  const { browser, account } = await signedIn(app, 'rotate@example.com');
  const before = (await app.webhooks.service.getSecret(account)).secret;
  const page = await browser.get('/webhooks');
  t.regex(page.text, /data-role="masked">whsec_•+<\/span>/);
  t.true(page.text.includes(`<span data-role="value" id="webhook-secret" hidden>${before}</span>`));
  t.regex(page.text, /data-reveal="webhook-secret"/);
  t.regex(page.text, /data-copy="webhook-secret"/);
  t.false(page.text.includes('Rotation in progress'));
  t.false(/<script>(?!<\/script>)|\sstyle="|\son[a-z]+="/.test(page.text), 'no inline script, style or handler');

  const rotated = await browser.post('/webhooks/secret/rotate', {});
  t.is(rotated.status, 303);
  const after = await app.webhooks.service.getSecret(account);
  t.not(after.secret, before);
  const shown = await browser.get('/webhooks?done=rotated');
  t.true(shown.text.includes(`id="webhook-secret" hidden>${after.secret}<`), 'the new secret is the one shown');
  const until = after.previous_expires_at!.replace('T', ' ').slice(0, 19);
  t.regex(shown.text, new RegExp(`previous secret also signs every webhook until <strong>${until} UTC`));
  t.deepEqual(await app.webhooks.service.signingSecrets(account.id), [after.secret, before], 'both sign meanwhile');
});

test('a delivery to a local receiver is in the log with its attempt, and Resend sends it again with the same webhook-id', async (t) => {
  const app = await start(t);
  const receiver = await startReceiver(t);
  const { browser, account } = await signedIn(app, 'log@example.com');
  t.is((await browser.post('/webhooks/endpoints', addForm(receiver.url))).status, 303);
  const { key } = await app.store.createKey(account.id, 'test');
  const created = await app.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat', duration: 30 } });
  t.is(created.status, 202);
  const [first] = await receiver.waitFor(1);
  t.is(first!.json.type, 'generation.completed');

  const log = await until(async () => {
    const page = await browser.get('/webhooks');
    return /badge-completed">Delivered/.test(page.text) ? page.text : undefined;
  }, 'the delivery to show as delivered');
  const [deliveryId] = rows(log, 'delivery');
  t.truthy(deliveryId);
  t.true(log.includes('<code>generation.completed</code>'));
  t.true(log.includes(`<code>${receiver.url}</code>`));
  t.regex(log, /<summary>1 · last <span class="status-code s2">200<\/span><\/summary>/);
  t.regex(log, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/span> <span class="status-code s2">200<\/span> · \d+ ms/);
  t.true(log.includes(`webhook-id <code>${first!.headers['webhook-id']}</code>`));

  const resent = await browser.post(`/webhooks/deliveries/${deliveryId}/resend`, { offset: '0' });
  t.is(resent.status, 303);
  t.is(resent.location, '/webhooks?done=resent#deliveries');
  const [, second] = await receiver.waitFor(2);
  t.is(second!.headers['webhook-id'], first!.headers['webhook-id']);
  const again = await until(async () => {
    const page = await browser.get('/webhooks?done=resent');
    return page.text.includes('<summary>2 · last') ? page.text : undefined;
  }, 'the second attempt in the log');
  t.regex(again, /being sent again, with the same webhook-id/);
});

test('an endpoint disabled after failing shows why, and Enable turns it on again', async (t) => {
  const app = await start(t, { disableAfterMs: 0 });
  const receiver = await startReceiver(t, () => 500);
  const { browser, account } = await signedIn(app, 'disabled@example.com');
  await browser.post('/webhooks/endpoints', addForm(receiver.url));
  const { key } = await app.store.createKey(account.id, 'test');
  await app.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat', duration: 30 } });
  await receiver.waitFor(1);
  const page = await until(async () => {
    const got = await browser.get('/webhooks');
    return got.text.includes('badge-failed">Disabled') ? got.text : undefined;
  }, 'the endpoint to show as disabled');
  t.regex(page, /Every delivery attempt since [^<]+ failed/);
  const [endpoint] = await app.webhooks.service.listEndpoints(account);
  t.is((await browser.post(`/webhooks/endpoints/${endpoint!.id}/enable`, {})).status, 303);
  const enabled = await browser.get('/webhooks?done=enabled');
  t.regex(enabled.text, /badge-completed">Enabled/);
  t.is((await app.webhooks.service.listEndpoints(account))[0]!.disabled_at, null);
});

test("two accounts never see or touch each other's endpoints and deliveries", async (t) => {
  const app = await start(t);
  const receiver = await startReceiver(t);
  const alice = await signedIn(app, 'alice@example.com');
  const bob = await signedIn(app, 'bob@example.com', 'enterprise');
  await alice.browser.post('/webhooks/endpoints', addForm(`${receiver.url}?who=alice`));
  await bob.browser.post('/webhooks/endpoints', addForm(`${receiver.url}?who=bob`));
  const { key } = await app.store.createKey(alice.account.id, 'test');
  await app.call(key, '/v1/generate', { json: { prompt: 'a calm lofi beat', duration: 30 } });
  await receiver.waitFor(1);
  const aliceDelivery = await until(
    async () => (await app.webhooks.service.listDeliveries(alice.account, { limit: 1, offset: 0 })).items[0],
    "alice's delivery",
  );
  const [aliceEndpoint] = await app.webhooks.service.listEndpoints(alice.account);

  const bobPage = (await bob.browser.get('/webhooks')).text;
  t.false(bobPage.includes('who=alice'));
  t.deepEqual(rows(bobPage, 'delivery'), []);
  t.is(rows(bobPage, 'endpoint').length, 1);
  t.true((await alice.browser.get('/webhooks')).text.includes(aliceDelivery.id));
  t.is((await bob.browser.post(`/webhooks/endpoints/${aliceEndpoint!.id}/delete`, {})).status, 404);
  t.is((await bob.browser.post(`/webhooks/endpoints/${aliceEndpoint!.id}/enable`, {})).status, 404);
  t.is((await bob.browser.post(`/webhooks/deliveries/${aliceDelivery.id}/resend`, {})).status, 404);
  t.is((await app.webhooks.service.listEndpoints(alice.account)).length, 1);
  t.is(receiver.requests.length, 1, 'nothing was resent');
});

test('webhook forms without the CSRF token, or from another origin, are refused', async (t) => {
  const app = await start(t);
  const { browser, account } = await signedIn(app, 'csrf@example.com');
  t.is(
    (await browser.post('/webhooks/endpoints', [['_csrf', ''], ...addForm('https://hooks.example.com/a')])).status,
    403,
  );
  t.is(
    (
      await browser.post('/webhooks/endpoints', addForm('https://hooks.example.com/a'), {
        Origin: 'https://evil.example',
      })
    ).status,
    403,
  );
  const before = (await app.webhooks.service.getSecret(account)).secret;
  t.is((await browser.post('/webhooks/secret/rotate', { _csrf: '' })).status, 403);
  t.is((await app.webhooks.service.getSecret(account)).secret, before);
  t.is((await app.webhooks.service.listEndpoints(account)).length, 0);
  t.is((await browser.post('/webhooks/endpoints', addForm('https://hooks.example.com/a'))).status, 303);
});
