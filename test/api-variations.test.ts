/**
 * `variations` on POST /v1/generate (issue 16, item 3): n generations from one request with a shared batch_id,
 * the same spec with different seeds (n distinct melodies), all or none against the quota, and an
 * Idempotency-Key that replays the whole batch.
 */
import test from 'ava';
import { compose, interpret, type GenerationRequest } from '../engine/index.ts';
import { errorOf, startApp } from './helpers/app.ts';
import { part, sequenceSimilarity } from './helpers/score-metrics.ts';

/** test/engine/compose.test.ts: repeats of a section play the same melody at similarity >= 0.8. */
const REPEAT_THRESHOLD = 0.8;

type Batch = {
  batch_id: string;
  generations: { id: string; seed: number; batch_id: string; prompt: string; duration: number }[];
};

test('variations: 3 makes three generations sharing a batch_id, each with its own seed and the same spec', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a calm piano ballad', duration: 40, seed: 11, bpm: 80, variations: 3 },
  });
  t.is(res.status, 202, await res.clone().text());
  t.is(res.headers.get('location'), null);
  const batch = (await res.json()) as Batch;
  t.regex(batch.batch_id, /^batch_/);
  t.is(batch.generations.length, 3);
  t.true(
    batch.generations.every(
      (g) => g.batch_id === batch.batch_id && g.prompt === 'a calm piano ballad' && g.duration === 40,
    ),
  );
  t.is(new Set(batch.generations.map((g) => g.seed)).size, 3);
  t.is(batch.generations[0]!.seed, 11);
  t.is(app.jobs.queued.length, 3);
  const stored = await Promise.all(batch.generations.map((g) => app.store.getGeneration(account.id, g.id)));
  t.deepEqual(
    stored.map((g) => g?.music),
    [{ bpm: 80 }, { bpm: 80 }, { bpm: 80 }],
  );
});

test("the variations of a batch are distinct melodies: lead similarity below the engine's repeat threshold", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'an upbeat pop song', duration: 40, seed: 5, instrumental: true, variations: 4 },
  });
  const batch = (await res.json()) as Batch;
  const melodies = await Promise.all(
    batch.generations.map(async (g) => {
      const stored = (await app.store.getGeneration(account.id, g.id))!;
      const request: GenerationRequest = {
        prompt: stored.prompt,
        duration: stored.duration,
        style: stored.style,
        instrumental: stored.instrumental,
        seed: stored.seed,
        lyrics: stored.lyrics,
      };
      const spec = interpret(request);
      return { genre: spec.genre, melody: part(compose(spec), 'lead')?.notes.map((n) => n.midi) ?? [] };
    }),
  );
  t.is(new Set(melodies.map((m) => m.genre)).size, 1, 'the same spec: one genre');
  for (let i = 0; i < melodies.length; i++) {
    t.true(melodies[i]!.melody.length > 10);
    for (let j = i + 1; j < melodies.length; j++) {
      const similarity = sequenceSimilarity(melodies[i]!.melody, melodies[j]!.melody);
      t.true(similarity < REPEAT_THRESHOLD, `variations ${i} and ${j}: similarity ${similarity.toFixed(2)}`);
    }
  }
});

test('without variations the response is the single generation it always was', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'a song' } });
  const body = await res.json();
  t.is(body.object, 'generation');
  t.false('batch_id' in body);
  t.truthy(res.headers.get('location'));
});

test('a batch the quota cannot take whole is a 402 and creates none of it', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('enterprise', { monthly: 3, rpm: 100 });
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'a' } })).status, 202);
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'b', variations: 3 } });
  t.is(res.status, 402);
  t.like(await errorOf(res), { code: 'quota_exceeded' });
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
  t.is(app.jobs.queued.length, 1);
  t.is((await app.call(key, '/v1/generate', { json: { prompt: 'c', variations: 2 } })).status, 202);
});

test('an Idempotency-Key replays the whole batch', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const json = { prompt: 'lofi beats', variations: 2 };
  const headers = { 'Idempotency-Key': 'batch-1' };
  const first = (await (await app.call(key, '/v1/generate', { json, headers })).json()) as Batch;
  const again = await app.call(key, '/v1/generate', { json, headers });
  t.is(again.status, 202);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  const replayed = (await again.json()) as Batch;
  t.is(replayed.batch_id, first.batch_id);
  t.deepEqual(
    replayed.generations.map((g) => g.id),
    first.generations.map((g) => g.id),
  );
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 2);
  t.is(app.jobs.queued.length, 2);
});

for (const [value, code] of [
  [5, 'out_of_range'],
  [0, 'out_of_range'],
  [1.5, 'invalid_type'],
  ['two', 'invalid_type'],
] as const) {
  test(`variations ${JSON.stringify(value)} is a 400 naming the field`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account();
    const res = await app.call(key, '/v1/generate', { json: { prompt: 'a', variations: value } });
    t.is(res.status, 400);
    const error = await errorOf(res);
    t.like(error, { param: 'variations', code });
    t.regex(error.message, /"variations" must be/);
  });
}
