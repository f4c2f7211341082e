/** Signed download links: no API key, audio types, a filename from the title, ranges, and nothing else served. */
import test from 'ava';
import wavefile from 'wavefile';
import { DownloadSigner } from '../src/domain/download-links.ts';
import { errorOf, rawRequest, sineWav, startApp } from './helpers/app.ts';

async function completed(t: import('ava').ExecutionContext, title = 'Rainy Night Lo-Fi', options = {}) {
  const app = await startApp(t, options);
  const { key, account } = await app.account();
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  await app.jobs.complete(id, title);
  const generation = await (await app.call(key, `/v1/generation/${id}`)).json();
  return { app, key, account, id, urls: generation.download_urls as { wav: string; midi: string } };
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

test('the WAV link downloads without an API key as audio/wav with a filename from the title', async (t) => {
  const { urls } = await completed(t);
  const res = await fetch(urls.wav);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'audio/wav');
  t.is(res.headers.get('content-disposition'), 'attachment; filename="rainy-night-lo-fi.wav"');
  t.is(res.headers.get('accept-ranges'), 'bytes');
  t.truthy(res.headers.get('x-request-id'));
  const bytes = Buffer.from(await res.arrayBuffer());
  t.deepEqual(bytes, Buffer.from(sineWav()));
  // Read back by an independent decoder: one second of 8 kHz mono.
  const wav = new wavefile.WaveFile(bytes);
  t.is((wav.getSamples(false, Int16Array) as unknown as Int16Array).length, 8000);
});

test('the MIDI link downloads as audio/midi', async (t) => {
  const { urls } = await completed(t);
  const res = await fetch(urls.midi);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'audio/midi');
  t.is(res.headers.get('content-disposition'), 'attachment; filename="rainy-night-lo-fi.mid"');
  t.is(
    Buffer.from(await res.arrayBuffer())
      .subarray(0, 4)
      .toString('latin1'),
    'MThd',
  );
});

test('a title without ASCII letters falls back to the generation id as filename', async (t) => {
  const { urls, id } = await completed(t, '雨の夜');
  const res = await fetch(urls.wav);
  t.is(res.headers.get('content-disposition'), `attachment; filename="${id}.wav"`);
});

test('a byte range is answered 206 with Content-Range and exactly those bytes', async (t) => {
  const { urls } = await completed(t);
  const whole = Buffer.from(sineWav());
  const res = await fetch(urls.wav, { headers: { Range: 'bytes=100-199' } });
  t.is(res.status, 206);
  t.is(res.headers.get('content-range'), `bytes 100-199/${whole.length}`);
  t.is(res.headers.get('content-length'), '100');
  t.deepEqual(Buffer.from(await res.arrayBuffer()), whole.subarray(100, 200));
});

test('open-ended and suffix ranges are served', async (t) => {
  const { urls } = await completed(t);
  const whole = Buffer.from(sineWav());
  const tail = await fetch(urls.wav, { headers: { Range: `bytes=${whole.length - 10}-` } });
  t.is(tail.status, 206);
  t.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 10));
  const suffix = await fetch(urls.wav, { headers: { Range: 'bytes=-44' } });
  t.is(suffix.status, 206);
  t.deepEqual(Buffer.from(await suffix.arrayBuffer()), whole.subarray(whole.length - 44));
});

test('a range past the end is a 416 with the file size', async (t) => {
  const { urls } = await completed(t);
  const size = sineWav().length;
  const res = await fetch(urls.wav, { headers: { Range: `bytes=${size}-${size + 10}` } });
  t.is(res.status, 416);
  t.is(res.headers.get('content-range'), `bytes */${size}`);
  t.is((await errorOf(res)).code, 'range_not_satisfiable');
});

test('HEAD gives the headers and length without the body', async (t) => {
  const { urls } = await completed(t);
  const res = await fetch(urls.wav, { method: 'HEAD' });
  t.is(res.status, 200);
  t.is(res.headers.get('content-length'), String(sineWav().length));
  t.is((await res.arrayBuffer()).byteLength, 0);
});

test('a tampered signature is a 403', async (t) => {
  const { urls } = await completed(t);
  const url = new URL(urls.wav);
  const sig = url.searchParams.get('sig')!;
  url.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
  const res = await fetch(url);
  t.is(res.status, 403);
  t.like(await errorOf(res), { type: 'permission_error', code: 'invalid_signature' });
});

test('a link with its expiry moved later is a 403', async (t) => {
  const { urls } = await completed(t);
  const url = new URL(urls.wav);
  url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86400));
  t.is((await fetch(url)).status, 403);
});

test('a WAV signature does not open the MIDI file', async (t) => {
  const { urls } = await completed(t);
  const res = await fetch(urls.wav.replace('.wav?', '.mid?'));
  t.is(res.status, 403);
});

test('a link past its expiry is a 403 link_expired', async (t) => {
  const { app, urls } = await completed(t, 'x', { downloadTtlSeconds: 3600 });
  app.clock.advance(3600 * 1000 + 61_000);
  const res = await fetch(urls.wav);
  t.is(res.status, 403);
  t.is((await errorOf(res)).code, 'link_expired');
});

test('links without a signature are a 403', async (t) => {
  const { urls } = await completed(t);
  const res = await fetch(urls.wav.split('?')[0]!);
  t.is(res.status, 403);
});

test('paths that try to leave the data dir are a 404 and serve nothing', async (t) => {
  const { app, urls } = await completed(t);
  const query = new URL(urls.wav).search;
  for (const path of [
    `/files/..%2F..%2F..%2Fetc/passwd.wav${query}`,
    `/files/../../etc/passwd${query}`,
    `/files/%2e%2e/accounts.json${query}`,
    `/files/acct/..%2Faccounts.json${query}`,
    `/files/acct/${'a'.repeat(10_000)}.wav${query}`,
  ]) {
    const res = await rawRequest(app.url, { path });
    t.is(res.status, 404, path.slice(0, 50));
    t.is(res.json().error.type, 'not_found_error');
  }
});

test('a correctly signed link to a generation that is not completed is a 404', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account();
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  // Not completed, so the API shows no link: sign one the way the server would.
  const signer = new DownloadSigner({ secret: 'test-secret-0123456789abcdef', publicUrl: app.url, ttlSeconds: 3600 });
  const res = await fetch(signer.links(account.id, id, app.clock.now()).download_urls.wav);
  t.is(res.status, 404);
  t.is((await errorOf(res)).code, 'file_not_found');
});

test("download links carry no API key and work for a revoked key's generation too", async (t) => {
  const { app, key, urls } = await completed(t);
  const record = (await app.store.findKey(key))!;
  await app.store.revokeKey(record.id);
  t.false(urls.wav.includes(key));
  t.is((await fetch(urls.wav)).status, 200);
});

test('repeated polls within the same minute return the same links', async (t) => {
  const { app, key, id } = await completed(t);
  app.clock.advance(10_000);
  const first = (await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls.wav;
  app.clock.advance(20_000);
  const second = (await (await app.call(key, `/v1/generation/${id}`)).json()).download_urls.wav;
  t.is(pathOf(first), pathOf(second));
});

test('a record whose file path would leave the data dir serves nothing (404)', async (t) => {
  const { app, key, id } = await completed(t);
  await app.store.transaction((tx) =>
    tx.updateGeneration(id, { files: { wav: '../../../../etc/passwd', midi: '/etc/passwd' } }),
  );
  const generation = await (await app.call(key, `/v1/generation/${id}`)).json();
  for (const url of [generation.download_urls.wav, generation.download_urls.midi]) {
    const res = await fetch(url);
    t.is(res.status, 404);
    t.notRegex(await res.text(), /root:/);
  }
});
