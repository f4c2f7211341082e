/** GET /v1/generation/:id and GET /v1/generations. */
import test from 'ava';
import { errorOf, rawRequest, startApp, type TestApp } from './helpers/app.ts';

async function create(app: TestApp, key: string, prompt = 'lofi beat'): Promise<{ id: string }> {
  const res = await app.call(key, '/v1/generate', { json: { prompt } });
  if (res.status !== 202) throw new Error(`create failed: ${res.status}`);
  return res.json();
}

test('GET /v1/generation/:id returns the live state of a queued task', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  await create(app, key, 'first');
  const second = await create(app, key, 'second');
  const body = await (await app.call(key, `/v1/generation/${second.id}`)).json();
  t.like(body, { id: second.id, status: 'processing', queue_position: 1, progress: 0, estimated_time: 24 });
});

test('GET /v1/generations/:id answers the same as GET /v1/generation/:id', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const { id } = await create(app, key);
  await app.jobs.complete(id);
  const [alias, canonical] = await Promise.all([
    app.call(key, `/v1/generations/${id}`),
    app.call(key, `/v1/generation/${id}`),
  ]);
  t.is(alias.status, 200);
  t.deepEqual(await alias.json(), await canonical.json());
});

test("GET /v1/generations/:id of another account's generation is a 404 generation_not_found", async (t) => {
  const app = await startApp(t);
  const { key: owner } = await app.account();
  const { key: other } = await app.account();
  const { id } = await create(app, owner);
  const res = await app.call(other, `/v1/generations/${id}`);
  t.is(res.status, 404);
  t.is((await errorOf(res)).code, 'generation_not_found');
});

test('a completed generation has metadata, title, absolute download URLs and no estimated_time', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const { id } = await create(app, key);
  await app.jobs.complete(id, 'Rainy Night');
  const body = await (await app.call(key, `/v1/generation/${id}`)).json();
  t.like(body, { status: 'completed', progress: 1, queue_position: null, title: 'Rainy Night' });
  t.false('estimated_time' in body);
  t.is(body.metadata.bpm, 80);
  t.true(body.download_urls.wav.startsWith(`${app.url}/files/`));
  t.true(body.download_urls.midi.startsWith(`${app.url}/files/`));
  t.true(Date.parse(body.download_expires_at) > app.clock.now().getTime());
  t.is(typeof body.completed_at, 'string');
});

test('a failed generation carries its error and no download URLs', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const { id } = await create(app, key);
  await app.jobs.fail(id);
  const body = await (await app.call(key, `/v1/generation/${id}`)).json();
  t.like(body, { status: 'failed', error: { code: 'render_failed' } });
  t.false('download_urls' in body);
  t.false('metadata' in body);
});

test("another account's generation is a 404, the same as an unknown id", async (t) => {
  const app = await startApp(t);
  const owner = await app.account();
  const other = await app.account();
  const { id } = await create(app, owner.key);
  const theirs = await app.call(other.key, `/v1/generation/${id}`);
  const unknown = await app.call(other.key, '/v1/generation/gen_doesnotexist');
  t.is(theirs.status, 404);
  t.is(unknown.status, 404);
  t.deepEqual(await errorOf(theirs), await errorOf(unknown));
});

test('a 10,000-character id and ids with odd characters are a 404 without a lookup', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  for (const path of [
    `/v1/generation/${'a'.repeat(10_000)}`,
    '/v1/generation/..%2F..%2Faccounts',
    '/v1/generation/%00',
    '/v1/generation/gen%20x',
  ]) {
    const res = await rawRequest(app.url, { path, headers: { Authorization: `Bearer ${key}` } });
    t.is(res.status, 404, path.slice(0, 40));
    t.is(res.json().error.code, 'generation_not_found');
  }
});

test("GET /v1/generations lists only the caller's generations, newest first, with the list envelope", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  const other = await app.account();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await create(app, key, `p${i}`)).id);
    app.clock.advance(1000);
  }
  await create(app, other.key);
  const body = await (await app.call(key, '/v1/generations')).json();
  t.like(body, { object: 'list', total: 3, limit: 20, offset: 0, has_more: false });
  t.deepEqual(
    body.data.map((g: { id: string }) => g.id),
    ids.reverse(),
  );
});

test('GET /v1/generations pages with limit and offset and reports has_more', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  for (let i = 0; i < 5; i++) {
    await create(app, key, `p${i}`);
    app.clock.advance(1000);
  }
  const first = await (await app.call(key, '/v1/generations?limit=2')).json();
  t.like(first, { total: 5, limit: 2, offset: 0, has_more: true });
  t.deepEqual(
    first.data.map((g: { prompt: string }) => g.prompt),
    ['p4', 'p3'],
  );
  const last = await (await app.call(key, '/v1/generations?limit=2&offset=4')).json();
  t.like(last, { has_more: false });
  t.deepEqual(
    last.data.map((g: { prompt: string }) => g.prompt),
    ['p0'],
  );
});

test('GET /v1/generations filters by status', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('enterprise');
  const a = await create(app, key, 'a');
  await create(app, key, 'b');
  await app.jobs.complete(a.id);
  const body = await (await app.call(key, '/v1/generations?status=completed')).json();
  t.is(body.total, 1);
  t.is(body.data[0].id, a.id);
});

for (const [query, param, code] of [
  ['limit=0', 'limit', 'out_of_range'],
  ['limit=101', 'limit', 'out_of_range'],
  ['limit=abc', 'limit', 'invalid_type'],
  ['limit=1.5', 'limit', 'invalid_type'],
  ['limit=-1', 'limit', 'invalid_type'],
  ['limit=', 'limit', 'invalid_type'],
  ['offset=-5', 'offset', 'invalid_type'],
  ['offset=1e3', 'offset', 'invalid_type'],
  ['status=done', 'status', 'invalid_value'],
  ['limit=5&limit=6', 'limit', 'duplicate_parameter'],
  ['sort=asc', 'sort', 'unknown_parameter'],
  ['status[]=completed', 'status[]', 'unknown_parameter'],
] as const) {
  test(`GET /v1/generations?${query} is a 400 ${code} naming ${param}`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account();
    const res = await app.call(key, `/v1/generations?${query}`);
    t.is(res.status, 400);
    t.like(await errorOf(res), { type: 'invalid_request_error', param, code });
  });
}

/** A completed generation whose metadata carries a trace and lyric timing, as a sung track's does. */
async function sung(app: TestApp, key: string): Promise<string> {
  const { id } = await create(app, key);
  const done = await app.jobs.complete(id);
  await app.store.transaction((tx) =>
    tx.updateGeneration(id, {
      metadata: {
        ...done.metadata,
        trace: [{ source: 'prompt', effect: 'lofi' }],
        lyrics_timing: [{ section: 'verse', text: 'la', start: 1, end: 2, words: [] }],
      },
    }),
  );
  return id;
}

test('list items leave out the trace and lyric timing; the single GET keeps them', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const id = await sung(app, key);
  const [item] = (await (await app.call(key, '/v1/generations')).json()).data;
  t.false('trace' in item.metadata);
  t.false('lyrics_timing' in item.metadata);
  t.is(item.metadata.bpm, 80);
  const single = await (await app.call(key, `/v1/generation/${id}`)).json();
  t.is(single.metadata.trace.length, 1);
  t.is(single.metadata.lyrics_timing.length, 1);
});

test('?expand=trace,lyrics_timing puts them back in list items', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  await sung(app, key);
  const [item] = (await (await app.call(key, '/v1/generations?expand=trace,lyrics_timing')).json()).data;
  t.is(item.metadata.trace.length, 1);
  t.is(item.metadata.lyrics_timing.length, 1);
});

test("a completed generation's metadata carries the engine's warnings, in the single GET and in list items", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const { id } = await create(app, key);
  const done = await app.jobs.complete(id);
  const warnings = ['"kazoo" is not played: the sound bank has no kazoo.'];
  await app.store.transaction((tx) => tx.updateGeneration(id, { metadata: { ...done.metadata, warnings } }));
  t.deepEqual((await (await app.call(key, `/v1/generation/${id}`)).json()).metadata.warnings, warnings);
  t.deepEqual((await (await app.call(key, '/v1/generations')).json()).data[0].metadata.warnings, warnings);
});

test('an unknown field in ?expand is a 400 invalid_value', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generations?expand=trace,lyrics');
  t.is(res.status, 400);
  t.like(await errorOf(res), { code: 'invalid_value', param: 'expand' });
});
