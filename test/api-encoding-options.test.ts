/** sample_rate, bit_depth and bitrate on POST /v1/generate: checked at the edge like every field, kept with the task, shown on it. */
import test from 'ava';
import { errorOf, startApp } from './helpers/app.ts';

test('the defaults are 44.1 kHz, 16 bits and VBR MP3, shown on the generation', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const body = await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json();
  t.like(body, { sample_rate: 44100, bit_depth: 16, bitrate: null });
});

test('sample_rate 48000, bit_depth 24 and bitrate 320 are kept with the task and shown on it', async (t) => {
  const app = await startApp(t);
  const { key, account } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: { prompt: 'lofi', sample_rate: 48000, bit_depth: 24, bitrate: 320 },
  });
  t.is(res.status, 202);
  const body = await res.json();
  t.like(body, { sample_rate: 48000, bit_depth: 24, bitrate: 320 });
  t.deepEqual((await app.store.getGeneration(account.id, body.id))?.encoding, {
    sample_rate: 48000,
    bit_depth: 24,
    bitrate: 320,
  });
});

for (const [field, value, message] of [
  ['sample_rate', 22050, '"sample_rate" must be one of 44100, 48000 Hz, not 22050.'],
  ['bit_depth', 32, '"bit_depth" must be one of 16, 24 bits, not 32.'],
  ['bitrate', 100, '"bitrate" must be one of 96, 128, 160, 192, 256, 320 kbps, not 100.'],
] as const) {
  test(`${field} ${value} is a 400 out_of_range naming the allowed values`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account();
    const res = await app.call(key, '/v1/generate', { json: { prompt: 'lofi', [field]: value } });
    t.is(res.status, 400);
    t.like(await errorOf(res), { type: 'invalid_request_error', code: 'out_of_range', param: field, message });
    t.is(app.jobs.queued.length, 0);
  });
}

test('a sample_rate sent as a string is a 400 invalid_type', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const res = await app.call(key, '/v1/generate', { json: { prompt: 'lofi', sample_rate: '48000' } });
  t.is(res.status, 400);
  t.like(await errorOf(res), {
    code: 'invalid_type',
    param: 'sample_rate',
    message: '"sample_rate" must be a number, not a string.',
  });
});
