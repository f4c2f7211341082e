/**
 * The playground's plan editor in a real browser: "More rows" shows five more rows and keeps what was typed, and
 * Enter in a field still generates (the form's default button is Generate, not "More rows").
 */
import test from 'ava';
import { newPage, openBrowser, startRealServer } from './browser.ts';

test('More rows adds five plan rows keeping the typed ones, and Enter in a field generates', async (t) => {
  const [server, browser] = await Promise.all([startRealServer(t), openBrowser(t)]);
  const page = await newPage(browser, t);
  const base = server.url;
  // The first start's local account (Developer): composition plans are a full-access feature (src/domain/plans.ts).
  await page.goto(server.firstSignInUrl ?? `${base}/signin`);
  await page.waitForURL(`${base}/`);

  await page.goto(`${base}/playground`);
  t.is(await page.locator('select[name^="section_kind_"]').count(), 10);
  // The rows are folded away until the editor is opened.
  t.false(await page.getByLabel('Section 1 kind').isVisible());
  await page.getByText('Composition plan').click();
  await page.getByLabel('Prompt').fill('an upbeat pop song');
  await page.getByLabel('Section 1 kind').selectOption('intro');
  await page.getByLabel('Section 1 bars').fill('16');
  await page.getByRole('button', { name: 'More rows' }).click();
  await page.waitForLoadState();
  t.is(await page.locator('select[name^="section_kind_"]').count(), 15);
  t.true(await page.getByLabel('Section 1 kind').isVisible(), 'the editor stays open');
  t.is(await page.getByLabel('Section 1 bars').inputValue(), '16');
  t.is(await page.getByLabel('Prompt').inputValue(), 'an upbeat pop song');

  await page.getByLabel('Section 1 bars').press('Enter');
  await page.waitForURL(/\/playground\?id=gen_/);
  t.pass();
});
