/** Request forgery from our side: forbidden targets are refused at registration (400 with the reason) and at send time. */
import test from 'ava';
import { forbiddenAddressReason } from '../src/domain/webhooks/address-policy.ts';
import { checkWebhookUrl, type Resolver } from '../src/domain/webhooks/url-safety.ts';
import { errorOf } from './helpers/app.ts';
import { startReceiver, startWebhookApp, until } from './helpers/webhooks.ts';

const FORBIDDEN: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.8.9.10', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['192.168.1.20', /private/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['169.254.169.254', /cloud metadata/],
  ['169.254.1.1', /link-local/],
  ['0.0.0.0', /unspecified/],
  ['224.0.0.1', /multicast/],
  ['255.255.255.255', /reserved/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['::ffff:127.0.0.1', /IPv4-mapped.*loopback/],
  ['::ffff:7f00:1', /IPv4-mapped.*loopback/],
  ['::ffff:a9fe:a9fe', /IPv4-mapped.*metadata/],
  ['64:ff9b::a00:1', /NAT64.*private/],
  ['::ffff:0:7f00:1', /SIIT.*loopback/],
  ['::ffff:0:808:808', /SIIT/],
  ['64:ff9b:1::808:808', /local-use NAT64/],
  ['64:ff9b:1:ffff::1', /local-use NAT64/],
  ['2002:7f00:1::', /6to4.*loopback/],
  ['fc00::1', /unique local/],
  ['fd12:3456::1', /unique local/],
  ['fd00:ec2::254', /cloud metadata/],
  ['fe80::1%eth0', /link-local/],
  ['ff02::1', /multicast/],
];

for (const [address, reason] of FORBIDDEN) {
  test(`${address} is a forbidden webhook address`, (t) => {
    t.regex(forbiddenAddressReason(address) ?? 'allowed', reason);
  });
}

test('public IPv4 and IPv6 addresses (and public ones in IPv4-mapped form) are allowed', (t) => {
  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2a00:1450:4001:80b::200e',
  ]) {
    t.is(forbiddenAddressReason(address), null, address);
  }
});

/** URLs naming each forbidden class: literal, odd IPv4 spellings, IPv6 forms, and a loopback name. */
const FORBIDDEN_URLS = [
  'http://127.0.0.1:8080/hook',
  'http://10.0.0.5/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[fd00:ec2::254]/',
  'http://2130706433/hook',
  'http://0x7f.1/hook',
  'http://localhost:3000/hook',
  'https://api.localhost/hook',
  'http://localhost./hook',
];

test('POST /v1/webhooks refuses each forbidden class with 400 unsafe_url and the reason', async (t) => {
  const app = await startWebhookApp(t, { allowPrivate: false });
  const { key } = await app.account();
  for (const url of FORBIDDEN_URLS) {
    const res = await app.call(key, '/v1/webhooks', { json: { url } });
    t.is(res.status, 400, url);
    const error = await errorOf(res);
    t.like(error, { type: 'invalid_request_error', code: 'unsafe_url', param: 'url' }, url);
    t.regex(error.message, /loopback|private|metadata/, url);
  }
  t.deepEqual((await (await app.call(key, '/v1/webhooks')).json()).data, []);
});

test('POST /v1/generate refuses a forbidden callback_url with 400 unsafe_url and creates nothing', async (t) => {
  const app = await startWebhookApp(t, { allowPrivate: false });
  const { account, key } = await app.account();
  for (const callback_url of FORBIDDEN_URLS) {
    const res = await app.call(key, '/v1/generate', { json: { prompt: 'x', callback_url } });
    t.is(res.status, 400, callback_url);
    t.like(await errorOf(res), { code: 'unsafe_url', param: 'callback_url' });
  }
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 0);
});

test('a name that resolves to a forbidden address is refused, naming the address', async (t) => {
  const resolve: Resolver = async (host) =>
    host === 'hooks.example.com' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];
  const app = await startWebhookApp(t, { allowPrivate: false, resolve });
  const { key } = await app.account();
  const res = await app.call(key, '/v1/webhooks', { json: { url: 'https://hooks.example.com/in' } });
  t.is(res.status, 400);
  t.regex((await errorOf(res)).message, /hooks\.example\.com resolves to 127\.0\.0\.1, a loopback address/);
  t.is((await app.call(key, '/v1/webhooks', { json: { url: 'https://public.example.com/in' } })).status, 201);
});

test('a name with one private answer among public ones is refused', async (t) => {
  const resolve: Resolver = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ];
  const error = await t.throwsAsync(
    checkWebhookUrl('https://mixed.example.com/', 'url', { allowPrivate: false, resolve }),
  );
  t.regex(error!.message, /10\.0\.0\.7, a private address/);
});

test('a name that does not resolve yet is accepted at registration (every send checks again)', async (t) => {
  const resolve: Resolver = async () => {
    throw Object.assign(new Error('queryA ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  await t.notThrowsAsync(checkWebhookUrl('https://not-yet.example.com/', 'url', { allowPrivate: false, resolve }));
});

test('with TUNESMITH_WEBHOOK_ALLOW_PRIVATE the checks are off', async (t) => {
  await t.notThrowsAsync(checkWebhookUrl('http://127.0.0.1:9/hook', 'url', { allowPrivate: true }));
  await t.notThrowsAsync(checkWebhookUrl('http://localhost/hook', 'url', { allowPrivate: true }));
});

test('at send time each forbidden class is refused again (a name that now resolves elsewhere), and nothing reaches it', async (t) => {
  // The receiver listens on loopback: it stands for the internal service an attacker would aim at.
  const internal = await startReceiver(t);
  const port = new URL(internal.url).port;
  const rebound: Record<string, string> = {
    a: '127.0.0.1',
    b: '10.0.0.1',
    c: '169.254.169.254',
    d: '::1',
    e: '::ffff:127.0.0.1',
  };
  let rebinding = false;
  const resolve: Resolver = async (host) => {
    const target = rebound[host.split('.')[0]!]!;
    return [
      rebinding ? { address: target, family: target.includes(':') ? 6 : 4 } : { address: '93.184.216.34', family: 4 },
    ];
  };
  const app = await startWebhookApp(t, { allowPrivate: false, resolve, schedule: [] });
  const { key } = await app.account();
  for (const name of Object.keys(rebound)) {
    t.is(
      (await app.call(key, '/v1/webhooks', { json: { url: `http://${name}.rebind.example:${port}/hook` } })).status,
      201,
    );
  }
  rebinding = true;
  await app.call(key, '/v1/generate', { json: { prompt: 'x' } });
  const log = await until(async () => {
    const { data } = await (await app.call(key, '/v1/webhooks/deliveries?status=failed')).json();
    return data.length === 5 ? data : undefined;
  }, 'five refused deliveries');
  for (const delivery of log) {
    t.is(delivery.attempts.length, 1);
    t.is(delivery.attempts[0].status_code, null);
    t.regex(delivery.attempts[0].error, /^refused: .* resolves to .*(loopback|private|metadata)/);
  }
  t.is(internal.requests.length, 0);
});

test('Starter accounts get 403 plan_forbidden on every /v1/webhooks route', async (t) => {
  const app = await startWebhookApp(t);
  const { key } = await app.account('starter');
  const calls: [string, string, unknown?][] = [
    ['GET', '/v1/webhooks'],
    ['POST', '/v1/webhooks', { url: 'https://example.com/hook' }],
    ['DELETE', '/v1/webhooks/we_x'],
    ['POST', '/v1/webhooks/we_x/enable'],
    ['GET', '/v1/webhooks/secret'],
    ['POST', '/v1/webhooks/secret/rotate'],
    ['GET', '/v1/webhooks/deliveries'],
    ['GET', '/v1/webhooks/deliveries/whd_x'],
    ['POST', '/v1/webhooks/deliveries/whd_x/resend'],
  ];
  for (const [method, path, json] of calls) {
    const res = await app.call(key, path, { method, ...(json === undefined ? {} : { json }) });
    t.is(res.status, 403, `${method} ${path}`);
    const error = await errorOf(res);
    t.like(error, { type: 'permission_error', code: 'plan_forbidden' });
    t.regex(error.message, /Webhooks are not available on the Starter plan\. Upgrade to Developer or Enterprise\.$/);
  }
});
