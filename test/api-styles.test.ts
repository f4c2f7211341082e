/**
 * Custom styles through the API (issue 26 part 2): POST, GET and DELETE /v1/styles, `style` in POST /v1/generate,
 * Enterprise only, never seen or used by another account, and played by the engine as they were made.
 */
import test from 'ava';
import { interpret, listStyles } from '../engine/index.ts';
import { requestOf } from '../src/jobs/render-task.ts';
import { errorOf, startApp } from './helpers/app.ts';

const NIGHT_FLUTE = {
  name: 'night-flute',
  from: 'lofi',
  description: 'Lo-fi in three on a flute',
  bpm: { min: 60, max: 66 },
  key: 'F# minor',
  time_signature: '3/4',
  instruments: { lead: 'flute', texture: null },
  swing: 0.2,
  reverb: 0.6,
  vocals: false,
};

async function enterprise(t: Parameters<typeof startApp>[0]) {
  const app = await startApp(t);
  const { key, account } = await app.account('enterprise');
  return { app, key, account };
}

test('an Enterprise account makes a style, finds it listed after the built-in ones, reads and deletes it', async (t) => {
  const { app, key } = await enterprise(t);
  const made = await app.call(key, '/v1/styles', { json: NIGHT_FLUTE });
  t.is(made.status, 201);
  t.is(made.headers.get('location'), '/v1/styles/night-flute');
  const style = await made.json();
  t.like(style, {
    object: 'style',
    name: 'night-flute',
    custom: true,
    base: 'lofi',
    description: 'Lo-fi in three on a flute',
    key: 'F# minor',
    time_signature: '3/4',
    instruments: { lead: 'flute', texture: null },
  });

  const list = (await (await app.call(key, '/v1/styles')).json()).data as { name: string; custom: boolean }[];
  t.deepEqual(
    list.map((s) => s.name),
    [...listStyles().map((s) => s.name), 'night-flute'],
  );
  t.deepEqual(
    list.filter((s) => s.custom).map((s) => s.name),
    ['night-flute'],
  );
  t.like(await (await app.call(key, '/v1/styles/Night-Flute')).json(), { name: 'night-flute', swing: 0.2 });
  t.like(await (await app.call(key, '/v1/styles/lofi')).json(), { name: 'lofi', custom: false });

  t.is((await app.call(key, '/v1/styles/night-flute', { method: 'DELETE' })).status, 204);
  t.is((await errorOf(await app.call(key, '/v1/styles/night-flute'))).code, 'style_not_found');
  const again = await app.call(key, '/v1/styles/night-flute', { method: 'DELETE' });
  t.is(again.status, 404);
  t.is((await errorOf(await app.call(key, '/v1/styles/lofi', { method: 'DELETE' }))).code, 'style_not_found');
});

test("a generation with one's own style keeps it, and the engine plays it: tempo range, key, meter, instruments", async (t) => {
  const { app, key, account } = await enterprise(t);
  t.is((await app.call(key, '/v1/styles', { json: NIGHT_FLUTE })).status, 201);
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'a calm beat for the evening', duration: 30, style: 'Night-Flute', seed: 5 },
  });
  t.is(res.status, 202);
  const generation = await res.json();
  t.is(generation.style, 'night-flute');
  // Deleting the style afterwards changes nothing for the task: it keeps the style as it was made.
  t.is((await app.call(key, '/v1/styles/night-flute', { method: 'DELETE' })).status, 204);

  const stored = await app.store.getGeneration(account.id, generation.id);
  t.truthy(stored?.custom_style);
  const request = requestOf(stored!);
  t.is(request.style, 'lofi');
  const spec = interpret(request);
  t.true(spec.bpm >= 60 && spec.bpm <= 66, String(spec.bpm));
  t.deepEqual(spec.key, { tonic: 'F#', mode: 'minor' });
  t.deepEqual(spec.meter, { beatsPerBar: 3, beatUnit: 4 });
  t.is(spec.instruments.find((i) => i.role === 'lead')?.instrument, 'flute');
  t.false(spec.instruments.some((i) => i.role === 'texture'));
});

test('another account neither sees nor uses nor deletes a style it did not make', async (t) => {
  const { app, key } = await enterprise(t);
  t.is((await app.call(key, '/v1/styles', { json: NIGHT_FLUTE })).status, 201);
  const other = (await app.account('enterprise')).key;
  const names = ((await (await app.call(other, '/v1/styles')).json()).data as { name: string }[]).map((s) => s.name);
  t.false(names.includes('night-flute'));
  t.is((await errorOf(await app.call(other, '/v1/styles/night-flute'))).code, 'style_not_found');
  t.is((await app.call(other, '/v1/styles/night-flute', { method: 'DELETE' })).status, 404);
  const generate = await errorOf(
    await app.call(other, '/v1/generate', { json: { prompt: 'a beat', style: 'night-flute' } }),
  );
  t.like(generate, { code: 'unknown_style', param: 'style' });
  t.false(generate.message.includes('night-flute",') || generate.message.includes(', night-flute'));
  // The other account may make a style of the same name: names are per account.
  t.is((await app.call(other, '/v1/styles', { json: NIGHT_FLUTE })).status, 201);
});

test("making a style is Enterprise only, in the one 403 shape naming the plan; listing is every plan's", async (t) => {
  const app = await startApp(t);
  for (const plan of ['starter', 'developer'] as const) {
    const { key } = await app.account(plan);
    const res = await app.call(key, '/v1/styles', { json: NIGHT_FLUTE });
    t.is(res.status, 403);
    const error = await errorOf(res);
    t.like(error, { type: 'permission_error', code: 'plan_forbidden' });
    t.regex(
      error.message,
      /^Custom styles are not available on the (Starter|Developer) plan\. Upgrade to Enterprise\.$/,
    );
    t.is((await app.call(key, '/v1/styles')).status, 200);
  }
});

test('an account whose plan lost custom styles still lists and deletes its own, but cannot generate with them', async (t) => {
  const { app, key, account } = await enterprise(t);
  t.is((await app.call(key, '/v1/styles', { json: NIGHT_FLUTE })).status, 201);
  await app.store.updateAccount(account.id, { plan: 'developer' });
  const names = ((await (await app.call(key, '/v1/styles')).json()).data as { name: string }[]).map((s) => s.name);
  t.true(names.includes('night-flute'));
  const refused = await app.call(key, '/v1/generate', { json: { prompt: 'a beat', style: 'night-flute' } });
  t.is(refused.status, 403);
  t.like(await errorOf(refused), { code: 'plan_forbidden', param: 'style' });
  t.is((await app.call(key, '/v1/styles/night-flute', { method: 'DELETE' })).status, 204);
});

test('a style is checked as the built-in ones are: each refusal names the field', async (t) => {
  const { app, key } = await enterprise(t);
  const refusal = async (body: Record<string, unknown>) => {
    const res = await app.call(key, '/v1/styles', { json: { name: 'x-style', from: 'lofi', ...body } });
    return { status: res.status, ...(await errorOf(res)) };
  };
  t.like(await refusal({ name: 'Night Flute' }), { status: 400, code: 'invalid_value', param: 'name' });
  t.like(await refusal({ from: 'polka' }), { status: 400, code: 'unknown_style', param: 'from' });
  t.like(await refusal({ instruments: { lead: 'kazoo' } }), { status: 400, param: 'instruments.lead' });
  t.like(await refusal({ instruments: { singer: 'flute' } }), { status: 400, param: 'instruments' });
  t.like(await refusal({ bpm: { min: 90, max: 80 } }), { status: 400, param: 'bpm' });
  t.like(await refusal({ bpm: { min: 20, max: 80 } }), { status: 400, param: 'bpm.min' });
  t.like(await refusal({ key: 'H minor' }), { status: 400, param: 'key' });
  t.like(await refusal({ key: 'A minor', modes: ['dorian'] }), { status: 400, code: 'conflicting_fields' });
  t.like(await refusal({ time_signature: '9/8' }), { status: 400, param: 'time_signature' });
  t.like(await refusal({ groove: 'waltz' }), { status: 400, param: 'groove' });
  t.like(await refusal({ swing: 2 }), { status: 400, code: 'out_of_range', param: 'swing' });
  t.like(await refusal({ tempo: 90 }), { status: 400, code: 'unknown_field' });
  t.like(await refusal({ name: 'lofi' }), { status: 409, code: 'style_exists', param: 'name' });
  t.is((await app.call(key, '/v1/styles', { json: { name: 'mine', from: 'lofi' } })).status, 201);
  t.like(await refusal({ name: 'mine' }), { status: 409, code: 'style_exists' });
});

test('a style made from one of your own starts from its base and its changes', async (t) => {
  const { app, key } = await enterprise(t);
  t.is((await app.call(key, '/v1/styles', { json: NIGHT_FLUTE })).status, 201);
  const res = await app.call(key, '/v1/styles', {
    json: { name: 'night-cello', from: 'night-flute', instruments: { lead: 'cello' } },
  });
  t.is(res.status, 201);
  t.like(await res.json(), {
    base: 'lofi',
    description: 'Lo-fi in three on a flute',
    key: 'F# minor',
    instruments: { lead: 'cello', texture: null },
  });
});
