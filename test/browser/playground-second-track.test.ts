/**
 * A new user's second playground track in a real browser (issue 26, part 4): a finished track leaves the plan rows
 * empty and out of sight until the plan editor is opened (where the track's plan can be loaded, and cleared), so a
 * second prompt of another length goes through; Generate is on screen without scrolling at 1280×900, and nothing
 * scrolls sideways on a 390 px phone.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { newPage, openBrowser, shot, startRealServer } from './browser.ts';

const RENDER_TIMEOUT_MS = 120_000;

/** The visible Generate button lies inside the viewport with the page scrolled to its top. */
async function generateOnScreen(page: Page): Promise<boolean> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.getByRole('button', { name: 'Generate', exact: true }).boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

async function scrollsSideways(page: Page): Promise<boolean> {
  await page.setViewportSize({ width: 390, height: 844 });
  const wider = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  await page.setViewportSize({ width: 1280, height: 900 });
  return wider;
}

test('a finished track leaves the plan rows alone, so a second track of another length is made', async (t) => {
  const [server, browser] = await Promise.all([startRealServer(t), openBrowser(t)]);
  const page = await newPage(browser, t);
  const base = server.url;
  // The first start's local account: a Developer, whose plan includes composition plans (a Starter's playground
  // shows no plan editor, test/dashboard-plan-marks.test.ts).
  await page.goto(server.firstSignInUrl!);
  await page.waitForURL(`${base}/`);

  await page.goto(`${base}/playground`);
  t.true(await generateOnScreen(page), 'Generate is on screen on an empty playground');
  t.false(await scrollsSideways(page), 'the empty playground does not scroll sideways at 390 px');
  t.false(await page.getByLabel('Section 1 kind').isVisible(), 'the plan rows wait for the editor to be opened');
  await page.getByLabel('Prompt').fill('a calm lofi beat with soft piano');
  await page.getByLabel('Duration (seconds)').fill('30');
  await page.getByLabel('Instrumental (no vocals)').check();
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.waitForURL(/\/playground\?id=gen_/);
  const first = new URL(page.url()).searchParams.get('id');
  await page.locator('.result audio').waitFor({ timeout: RENDER_TIMEOUT_MS });
  await shot(page, 'playground-finished');

  t.true(await generateOnScreen(page), 'Generate is on screen beside a finished track');
  t.false(await scrollsSideways(page), 'a finished track does not make the page scroll sideways at 390 px');
  t.false(await page.getByLabel('Section 1 kind').isVisible());
  await page.getByText('Composition plan').click();
  t.is(await page.getByLabel('Section 1 kind').inputValue(), '', 'the finished track did not fill the rows');

  // Asked for, the track's plan fills the rows; Clear empties them again.
  await page.getByRole('link', { name: "Load this track's plan" }).click();
  await page.waitForURL(/plan=edit/);
  t.not(await page.getByLabel('Section 1 kind').inputValue(), '');
  t.is(await page.getByLabel('Prompt').inputValue(), 'a calm lofi beat with soft piano');
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.waitForLoadState();
  t.true(await page.getByLabel('Section 1 kind').isVisible(), 'the editor stays open after Clear');
  t.is(await page.getByLabel('Section 1 kind').inputValue(), '');
  t.is(await page.getByLabel('Prompt').inputValue(), 'a calm lofi beat with soft piano');
  t.false(await scrollsSideways(page), 'the open plan editor scrolls within itself, not the page, at 390 px');
  await shot(page, 'playground-plan-open');

  await page.getByLabel('Prompt').fill('upbeat synthwave for a night drive');
  await page.getByLabel('Duration (seconds)').fill('60');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.waitForURL((url) => /id=gen_/.test(url.search) && !url.search.includes(String(first)));
  t.is(await page.locator('.field-error, .form-error').count(), 0);

  // The history's players know the finished track's length before anything is played.
  await page.goto(`${base}/generations`);
  await page.waitForFunction(
    (id) => ((document.querySelector(`#gen-${id} audio`) as HTMLAudioElement | null)?.duration ?? 0) > 29,
    first,
  );
  t.true(await page.locator(`#gen-${first} audio`).evaluate((audio: HTMLAudioElement) => audio.paused));
});
