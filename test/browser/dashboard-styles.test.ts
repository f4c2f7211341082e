/**
 * The Styles page in a real browser against a real server (issue 26 part 2): a Developer sees what Enterprise would
 * add; once the operator moves the account to Enterprise, it makes a style from a built-in one (a refusal shows next
 * to its field), finds it listed, picks it in the playground, and deletes it.
 */
import test from 'ava';
import { runCli } from '../helpers/process.ts';
import { newPage, openBrowser, shot, startRealServer } from './browser.ts';

test('an Enterprise account makes a style from a built-in one, uses it in the playground and deletes it', async (t) => {
  const [server, browser] = await Promise.all([startRealServer(t), openBrowser(t)]);
  const page = await newPage(browser, t);
  const base = server.url;
  await page.goto(server.firstSignInUrl!);
  await page.getByRole('link', { name: 'Styles', exact: true }).click();
  await page.waitForURL(`${base}/styles`);
  t.regex((await page.locator('main').textContent())!, /Custom styles are not part of the Developer plan: Enterprise/);
  t.is(await page.getByRole('button', { name: 'Make style' }).count(), 0);

  const account = (await (
    await fetch(`${base}/v1/account`, { headers: { Authorization: `Bearer ${server.firstKey}` } })
  ).json()) as { id: string };
  const moved = await runCli(['accounts', 'set-plan', account.id, 'enterprise'], {
    TUNESMITH_DATA_DIR: server.dataDir,
  });
  t.is(moved.code, 0, moved.stderr);

  await page.reload();
  await shot(page, 'styles-01-empty');
  await page.getByLabel('Name').fill('night-flute');
  await page.getByLabel('Start from').selectOption('lofi');
  await page.getByLabel('Slowest bpm').fill('60');
  await page.getByLabel('Fastest bpm').fill('66');
  await page.getByLabel('Key it prefers').fill('F# minor');
  await page.getByLabel('Meter').selectOption('3/4');
  await page.getByLabel('lead', { exact: true }).fill('kazoo');
  await page.getByLabel('texture', { exact: true }).fill('none');
  await page.getByLabel('Swing (0–1)').fill('0.2');
  await page.getByRole('button', { name: 'Make style' }).click();
  t.regex(
    (await page.locator('[id="instruments.lead-error"]').textContent())!,
    /no instrument called "kazoo"/,
    'the refusal sits next to the field, the form kept',
  );
  t.is(await page.getByLabel('Name').inputValue(), 'night-flute');
  await shot(page, 'styles-02-refused');

  await page.getByLabel('lead', { exact: true }).fill('flute');
  await page.getByRole('button', { name: 'Make style' }).click();
  await page.waitForURL(/\/styles\?made=night-flute/);
  const row = page.locator('tr[data-style="night-flute"]');
  t.regex((await row.textContent())!, /lofi[\s\S]*60–66 bpm, F# minor, 3\/4, lead: flute, no texture, swing 0\.2/);
  await shot(page, 'styles-03-made');

  // The API lists it for this account.
  const styles = (await (
    await fetch(`${base}/v1/styles`, { headers: { Authorization: `Bearer ${server.firstKey}` } })
  ).json()) as { data: { name: string; custom: boolean }[] };
  t.deepEqual(
    styles.data.filter((s) => s.custom).map((s) => s.name),
    ['night-flute'],
  );

  await row.getByRole('link', { name: 'Use' }).click();
  await page.waitForURL(`${base}/playground?style=night-flute`);
  t.is(await page.getByLabel('Style').inputValue(), 'night-flute');

  await page.goto(`${base}/styles`);
  await page.locator('tr[data-style="night-flute"] summary', { hasText: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete this style' }).click();
  await page.waitForURL(/\/styles\?deleted=night-flute/);
  t.is(await page.locator('tr[data-style]').count(), 0);
  t.regex((await page.locator('main').textContent())!, /No styles of your own yet/);
});
