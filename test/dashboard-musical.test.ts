/** The playground's tempo, key and time signature: sent as the API's musical fields, refused next to the field. */
import test from 'ava';
import { startApp } from './helpers/app.ts';
import { DashboardClient, signUpOnPlan } from './helpers/dashboard.ts';

test('the playground sends bpm, key and time signature with the task and shows them again on its page', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'ida@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', {
    prompt: 'a folk tune',
    duration: '30',
    bpm: '97',
    key: 'F# minor',
    time_signature: '3/4',
  });
  t.is(res.status, 303);
  const id = /id=(gen_[^&]+)/.exec(res.location!)![1]!;
  const account = (await app.store.listAccounts()).find((a) => a.email === 'ida@example.com')!;
  t.deepEqual((await app.store.getGeneration(account.id, id))?.music, {
    bpm: 97,
    key: 'F# minor',
    timeSignature: '3/4',
  });
  const page = await browser.get(`/playground?id=${id}`);
  t.regex(page.text, /id="bpm"[^>]*value="97"/);
  t.regex(page.text, /<option value="3\/4" selected>/);
});

test('the playground shows a bad key next to the key field', async (t) => {
  const app = await startApp(t);
  const browser = new DashboardClient(app.url);
  await signUpOnPlan(browser, app.store, 'jo@example.com');
  await browser.get('/playground');
  const res = await browser.post('/playground', { prompt: 'a folk tune', duration: '30', key: 'H major' });
  t.is(res.status, 400);
  t.regex(res.text, /id="key-error"[^>]*>&quot;key&quot; must be a tonic and a mode/);
});
