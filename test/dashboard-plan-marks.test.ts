/**
 * The playground marks what the account's plan does not include (issue 26 part 4): such a control is disabled and
 * names the plans that include it, so it is never sent and refused after the fact; what the plan includes is not.
 */
import test from 'ava';
import { startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';

/** The opening tag of the element with this id, or of the option with this value inside the select with this id. */
const tag = (page: string, id: string, option?: string): string => {
  const start = page.indexOf(`id="${id}"`);
  if (start === -1) throw new Error(`no #${id}`);
  if (option === undefined) return page.slice(page.lastIndexOf('<', start), page.indexOf('>', start) + 1);
  const select = page.slice(start, page.indexOf('</select>', start));
  const at = select.indexOf(`<option value="${option}"`);
  if (at === -1) throw new Error(`no option ${option} in #${id}`);
  return select.slice(at, select.indexOf('</option>', at));
};

test('a Starter playground disables what Starter lacks and names the plans that have it', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'sam@example.com', 'starter');
  const { text } = await browser.get('/playground');
  for (const id of ['bpm', 'key', 'time_signature', 'variations', 'stems']) t.regex(tag(text, id), / disabled/, id);
  t.regex(text, /BPM, key and time signature: Developer and Enterprise plans only\./);
  t.regex(text, /Composition plans: Developer and Enterprise plans only\./);
  t.false(text.includes('id="plan-editor"'), 'no plan rows to fill');
  t.regex(tag(text, 'sample_rate', '48000'), / disabled>48 kHz \(Developer and Enterprise plans only\)/);
  t.regex(tag(text, 'bit_depth', '24'), / disabled>/);
  t.regex(tag(text, 'bitrate', '320'), / disabled>320 kbps constant \(Developer and Enterprise plans only\)/);
  t.notRegex(tag(text, 'bitrate', '192'), /disabled/);
  for (const id of ['prompt', 'duration', 'style', 'loop']) t.notRegex(tag(text, id), / disabled/, id);

  // The form as the browser sends it (no disabled control) is a track, not a 403.
  const res = await browser.post('/playground', { prompt: 'a calm lofi beat', duration: '30', bitrate: '192' });
  t.is(res.status, 303, res.text);
});

test('a Developer playground offers everything Developer has; an own style the plan lost is shown, not offered', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'dee@example.com', 'enterprise');
  await browser.get('/styles');
  t.is((await browser.post('/styles', { name: 'night-flute', from: 'lofi' })).status, 303);
  const enterprise = await browser.get('/playground');
  t.notRegex(tag(enterprise.text, 'style', 'night-flute'), /disabled/);

  const credential = await app.store.credentials.findByEmail('dee@example.com');
  await app.store.updateAccount(credential!.account_id, { plan: 'developer' });
  const { text } = await browser.get('/playground');
  for (const id of ['bpm', 'key', 'time_signature', 'variations', 'stems']) t.notRegex(tag(text, id), / disabled/, id);
  t.true(text.includes('id="plan-editor"'));
  t.notRegex(tag(text, 'sample_rate', '48000'), /disabled/);
  t.notRegex(tag(text, 'bitrate', '320'), /disabled/);
  t.regex(tag(text, 'style', 'night-flute'), / disabled>night-flute \(Enterprise plan\)/);
});
