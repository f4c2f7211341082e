/**
 * The newcomer's journey in a real browser: sign up, create a key, call the API with it, see the task in
 * the history, make one in the playground and play it, revoke the key and see the API refuse it.
 */
import test from 'ava';
import { newPage, openBrowser, shot, startRealServer } from './browser.ts';

const RENDER_TIMEOUT_MS = 90_000;
const LYRICS = '[Verse]\nNeon on the empty road\nEngines humming soft and low\n[Chorus]\nDrive into the night';

test('sign up → key → API call in the history → playground track plays → revoked key gets 401', async (t) => {
  const [server, browser] = await Promise.all([startRealServer(t), openBrowser(t)]);
  const page = await newPage(browser, t);
  const base = server.url;

  await page.goto(`${base}/`);
  t.regex(page.url(), /\/signin$/, 'a signed-out visitor is sent to sign in');
  await shot(page, '01-signin');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill('newcomer@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await shot(page, '02-signup');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${base}/`);
  t.is(await page.locator('.plan-tag').textContent(), 'Starter plan');
  await shot(page, '03-overview');

  await page.getByRole('link', { name: 'API keys', exact: true }).click();
  await page.getByLabel('Name').fill('journey script');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.locator('#new-key').textContent())!.trim();
  t.regex(key, /^ts_live_/);
  await shot(page, '04-key-created');

  const created = await fetch(`${base}/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a calm lofi beat with soft piano', duration: 30, seed: 7 }),
  });
  t.is(created.status, 202);
  const { id: apiId } = (await created.json()) as { id: string };

  await page.getByRole('link', { name: 'Generations', exact: true }).click();
  await page.waitForURL(`${base}/generations`);
  const apiCard = page.locator(`#gen-${apiId}`);
  await apiCard.waitFor();
  t.regex((await apiCard.locator('.prompt').textContent())!, /calm lofi beat/);
  await shot(page, '05-generations-progress');
  // The page polls and reloads by itself when the task completes.
  await apiCard.locator('audio').waitFor({ timeout: RENDER_TIMEOUT_MS });
  await shot(page, '06-generations-done');

  await page.getByRole('link', { name: 'Playground', exact: true }).click();
  await page.waitForURL(`${base}/playground`);
  await page.getByLabel('Prompt').fill('upbeat synthwave for a night drive');
  await page.getByLabel('Duration (seconds)').fill('10');
  // The lyrics field goes away while "Instrumental" is checked, and comes back with the words kept.
  await page.getByLabel(/^Lyrics/).fill(LYRICS);
  await page.getByLabel('Instrumental (no vocals)').check();
  t.false(await page.getByLabel(/^Lyrics/).isVisible());
  await page.getByLabel('Instrumental (no vocals)').uncheck();
  await page.getByRole('button', { name: 'Generate' }).click();
  t.regex(
    (await page.locator('#duration-error').textContent())!,
    /between 30 and 180 seconds/,
    'the error sits next to its field',
  );
  t.is(await page.getByLabel(/^Lyrics/).inputValue(), LYRICS);
  await shot(page, '07-playground-error');
  await page.getByLabel('Duration (seconds)').fill('30');
  await page.getByLabel('Style').selectOption('synthwave');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.waitForURL(/\/playground\?id=gen_/);
  await shot(page, '08-playground-progress');
  const player = page.locator('.result audio');
  await player.waitFor({ timeout: RENDER_TIMEOUT_MS });
  // The browser really loads the track: its duration comes from the WAV it fetched through the signed link.
  await page.waitForFunction(
    () => ((document.querySelector('.result audio') as HTMLAudioElement | null)?.duration ?? 0) > 29,
    undefined,
    { timeout: 15_000 },
  );
  // The picture is drawn from the WAV on first request and loads lazily: wait for it, then check it has pixels.
  await page.waitForFunction(
    () => (document.querySelector('.result img.waveform') as HTMLImageElement | null)?.complete === true,
    undefined,
    { timeout: 30_000 },
  );
  t.true(
    (await page.locator('.result img.waveform').evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0,
    'the waveform picture loads',
  );
  // Karaoke: clicking the first sung line plays from there; the lit line follows the audio to the next one.
  const lines = page.locator('.result .lyric-line');
  t.deepEqual(
    await page.locator('.result .lyric-text').allTextContents(),
    LYRICS.split('\n').filter((l) => !l.startsWith('[')),
  );
  await lines.nth(0).click();
  await page.locator('.result .lyric-line.is-current').first().waitFor({ timeout: 10_000 });
  await page.waitForFunction(
    () => document.querySelector('.result .lyric-line:nth-child(2)')?.classList.contains('is-current'),
    undefined,
    { timeout: 20_000 },
  );
  t.is(await page.locator('.result .lyric-line.is-current').count(), 1, 'one line is lit at a time');
  const [time, start, end] = await page
    .locator('.result .lyric-line.is-current')
    .evaluate((li: HTMLElement) => [
      (document.querySelector('.result audio') as HTMLAudioElement).currentTime,
      Number(li.dataset.start),
      Number(li.dataset.end),
    ]);
  t.true(time! >= start! - 0.5 && time! <= end! + 0.5, `the lit line (${start}–${end} s) is the one at ${time} s`);
  await page.locator('.result audio').evaluate((audio: HTMLAudioElement) => audio.pause());
  await shot(page, '09-playground-done');

  await page.getByRole('link', { name: 'Docs', exact: true }).click();
  await page.waitForURL(`${base}/docs`);
  t.true((await page.locator('pre').first().textContent())!.includes(base));
  await shot(page, '10-docs');
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.waitForURL(`${base}/webhooks`);
  await shot(page, '11-webhooks');

  await page.getByRole('link', { name: 'API keys', exact: true }).click();
  await page.waitForURL(`${base}/keys`);
  await shot(page, '12-keys');
  t.false((await page.content()).includes(key), 'the key is not shown again');
  await page.locator('summary', { hasText: 'Revoke' }).click();
  await shot(page, '13-revoke-confirm');
  await page.getByRole('button', { name: 'Yes, revoke this key' }).click();
  await page.waitForURL(/\/keys\?revoked=1$/);
  await shot(page, '14-key-revoked');

  const refused = await fetch(`${base}/v1/generations`, { headers: { Authorization: `Bearer ${key}` } });
  t.is(refused.status, 401);
});

test('the first-start link signs the local account in once, and it can then set a password to come back', async (t) => {
  const [server, browser] = await Promise.all([startRealServer(t), openBrowser(t)]);
  t.truthy(server.firstSignInUrl);
  const page = await newPage(browser, t);
  await page.goto(server.firstSignInUrl!);
  t.is(page.url(), `${server.url}/`);
  t.is(await page.locator('.plan-tag').textContent(), 'Developer plan');
  await shot(page, '00-first-start-overview');

  const other = await newPage(browser, t);
  await other.goto(server.firstSignInUrl!);
  t.regex((await other.locator('.alert-error').textContent()) ?? '', /already been used/);

  await page.getByLabel('Email').fill('me@laptop.example');
  await page.getByLabel('Password').fill('my laptop password');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\?signin=saved$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${server.url}/signin`);
  await page.getByLabel('Email').fill('me@laptop.example');
  await page.getByLabel('Password').fill('my laptop password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/`);
  t.is(await page.locator('.plan-tag').textContent(), 'Developer plan');
});
