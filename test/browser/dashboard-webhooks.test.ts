/**
 * The webhooks page in a real browser against a real server: the local Developer account registers an
 * endpoint on a local receiver, reveals the secret, and sees a real render's signed generation.completed
 * delivered in the log; then resends it and rotates the secret.
 */
import test from 'ava';
import { eventually } from '../helpers/process.ts';
import { startReceiver, verifyWebhook } from '../helpers/webhooks.ts';
import { newPage, openBrowser, shot, startRealServer } from './browser.ts';

const RENDER_TIMEOUT_MS = 90_000;

test('a Developer registers an endpoint and sees a signed generation.completed delivered, resent and the secret rotated', async (t) => {
  const [server, browser, receiver] = await Promise.all([
    startRealServer(t, { TUNESMITH_WEBHOOK_ALLOW_PRIVATE: '1' }),
    openBrowser(t),
    startReceiver(t),
  ]);
  const page = await newPage(browser, t);
  const base = server.url;
  await page.goto(server.firstSignInUrl!);
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.waitForURL(`${base}/webhooks`);
  await shot(page, 'webhooks-01-empty');

  await page.getByLabel('URL').fill('ftp://files.example.com/hook');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  t.regex(
    (await page.locator('#url-error').textContent())!,
    /must be an http or https URL/,
    'the refusal sits next to the field',
  );
  await shot(page, 'webhooks-02-refused');
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByLabel('Description (optional)').fill('local receiver');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.waitForURL(/\/webhooks\?done=added/);
  t.is(await page.locator('tr[data-endpoint] .url-cell code').textContent(), receiver.url);

  const secret = page.locator('#webhook-secret');
  t.false(await secret.isVisible(), 'the secret starts masked');
  await page.getByRole('button', { name: 'Reveal' }).click();
  t.true(await secret.isVisible());
  const secretText = (await secret.textContent())!.trim();
  t.regex(secretText, /^whsec_/);

  const created = await fetch(`${base}/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.firstKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a calm lofi beat with soft piano', duration: 30, seed: 3 }),
  });
  t.is(created.status, 202);
  const [event] = await receiver.waitFor(1, RENDER_TIMEOUT_MS);
  t.is(event!.json.type, 'generation.completed');
  t.true(verifyWebhook(secretText, event!.headers, event!.body), 'signed with the secret the page shows');
  t.is((await fetch(event!.json.data.download_urls.wav)).status, 200, 'its download link works');

  // The receiver has the event a moment before the delivery's result is saved, and the page shows what is
  // saved: load it once the API says the delivery is settled, not before.
  await eventually(
    async () => {
      const res = await fetch(`${base}/v1/webhooks/deliveries?limit=10`, {
        headers: { Authorization: `Bearer ${server.firstKey}` },
      });
      const { data } = (await res.json()) as { data: { status: string }[] };
      return data.some((delivery) => delivery.status === 'delivered') ? true : undefined;
    },
    30_000,
    'the delivery to be saved as delivered',
    200,
  );
  await page.goto(`${base}/webhooks`);
  const row = page.locator('tr[data-delivery]');
  await row.locator('.badge', { hasText: 'Delivered' }).waitFor();
  t.regex((await row.locator('.attempts summary').textContent())!, /^1 · last 200$/);
  await row.locator('.attempts summary').click();
  await shot(page, 'webhooks-03-delivered');

  await row.getByRole('button', { name: 'Resend' }).click();
  await page.waitForURL(/done=resent/);
  const [, again] = await receiver.waitFor(2);
  t.is(again!.headers['webhook-id'], event!.headers['webhook-id']);

  await page.locator('summary', { hasText: 'Rotate secret' }).click();
  await shot(page, 'webhooks-04-rotate-confirm');
  await page.getByRole('button', { name: 'Yes, rotate' }).click();
  await page.waitForURL(/done=rotated/);
  t.regex(
    (await page.locator('#secret .alert-warn').textContent())!,
    /previous secret also signs every webhook until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
  );
  t.not((await secret.textContent())!.trim(), secretText);
  await shot(page, 'webhooks-05-rotated');
});
