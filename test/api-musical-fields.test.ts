/**
 * The musical fields of POST /v1/generate (issue 16, item 1): each is checked at the edge with a 400 naming
 * it, an accepted one is kept with the task, and a real render through a server process plays it — its tempo
 * heard by aubio and bpm-tools, its key and meter in the metadata, the prompt's disagreement a warning.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApp } from './helpers/app.ts';
import { generateRefusals, type Refusal } from './helpers/refusals.ts';
import { startServerProcess, tempDataDir } from './helpers/process.ts';
import { aubioBeats, bpmToolsTempo } from './helpers/analysis/tempo.ts';
import { steadyTempo, tempoError } from './helpers/analysis/field-fidelity.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

const prompt = 'a folk tune';

const refusals: Refusal[] = [
  {
    title: 'a bpm above 220',
    body: { bpm: 300 },
    code: 'out_of_range',
    param: 'bpm',
    message: /"bpm" must be between 40 and 220 beats per minute, not 300\./,
  },
  {
    title: 'a bpm written as a word',
    body: { bpm: 'fast' },
    code: 'invalid_type',
    param: 'bpm',
    message: /"bpm" must be a number, not a string\./,
  },
  {
    title: 'a key that is no key',
    body: { key: 'H major' },
    code: 'invalid_value',
    param: 'key',
    message: /"key" must be a tonic and a mode, such as "F# minor".*dorian.*not "H major"/,
  },
  {
    title: 'a mode the engine does not play',
    body: { key: 'C locrian' },
    code: 'invalid_value',
    param: 'key',
    message: /not "C locrian"/,
  },
  {
    title: 'a meter without grooves',
    body: { time_signature: '9/8' },
    code: 'invalid_value',
    param: 'time_signature',
    message: /"time_signature" 9\/8 .* Use one of: 3\/4, 4\/4, 5\/4, 6\/8, 7\/8, 12\/8\./,
  },
  {
    title: 'an instrument the engine does not play',
    body: { instruments: ['kazoo'] },
    code: 'unknown_instrument',
    param: 'instruments',
    message: /"kazoo" in "instruments" is not an instrument the engine plays/,
  },
  {
    title: 'instruments given as a string',
    body: { instruments: 'piano' },
    code: 'invalid_type',
    param: 'instruments',
    message: /"instruments" must be an array of strings/,
  },
  {
    title: 'an exclusion that is neither role nor instrument',
    body: { exclude: ['sadness'] },
    code: 'unknown_instrument',
    param: 'exclude',
    message: /or a role \(drums, .*vocals/,
  },
  {
    title: 'an instrument both asked for and excluded',
    body: { instruments: ['piano'], exclude: ['Piano'] },
    code: 'conflicting_fields',
    param: 'exclude',
    message: /"piano" is both in "instruments" and in "exclude"/,
  },
  {
    title: 'lyrics with the vocals excluded',
    body: { lyrics: 'la la la', exclude: ['vocals'] },
    code: 'conflicting_fields',
    param: 'exclude',
    message: /"lyrics" cannot be sung when "exclude" leaves out the vocals/,
  },
  {
    title: 'an energy above 1',
    body: { energy: 1.5 },
    code: 'out_of_range',
    param: 'energy',
    message: /"energy" must be between 0 and 1, not 1\.5\./,
  },
];

generateRefusals(prompt, refusals, 'the field');

test('POST /v1/generate keeps the musical fields with the task, normalised', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const json = {
    prompt,
    bpm: 97,
    key: 'F#  minor',
    time_signature: ' 3 / 4 ',
    instruments: ['Piano', 'cello', 'piano'],
    exclude: ['drums'],
    energy: 0.3,
  };
  const res = await app.call(key, '/v1/generate', { json });
  t.is(res.status, 202, await res.clone().text());
  const { id } = await res.json();
  t.deepEqual((await app.store.getGeneration(account.id, id))?.music, {
    bpm: 97,
    key: 'F# minor',
    timeSignature: '3/4',
    instruments: ['piano', 'cello'],
    exclude: ['drums'],
    energy: 0.3,
  });
});

test('POST /v1/generate without musical fields stores none, so the render is the one it always was', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const { id } = await (await app.call(key, '/v1/generate', { json: { prompt, bpm: null } })).json();
  t.false('music' in ((await app.store.getGeneration(account.id, id)) ?? {}));
});

test("a real render plays the fields over the prompt: 97 bpm heard in 3/4, F# minor and 3/4 in the metadata, the prompt's tempo a warning", async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const body = {
    prompt: 'a folk tune at 120 bpm',
    style: 'folk',
    duration: 30,
    seed: 4242,
    instrumental: true,
    bpm: 97,
    key: 'F# minor',
    time_signature: '3/4',
  };
  const created = await fetch(`${server.url}/v1/generate`, { method: 'POST', headers, body: JSON.stringify(body) });
  t.is(created.status, 202, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const done = await awaitCompleted(server.url, headers, id, 120_000);
  t.like(done.metadata, { bpm: 97, key: 'F# minor', meter: '3/4' });
  t.true(
    (done.metadata.warnings as string[]).includes(
      'The prompt says "120 bpm" but the "bpm" field asks for 97: the field wins.',
    ),
  );

  const wav = join(dataDir, 'heard.wav');
  await writeFile(wav, new Uint8Array(await (await fetch(done.download_urls.wav)).arrayBuffer()));
  const [bpmTools, beats] = await Promise.all([bpmToolsTempo(wav), aubioBeats(wav)]);
  const errors = [tempoError(bpmTools, 97), tempoError(steadyTempo(beats), 97)].filter((e): e is number => e !== null);
  t.log(`bpm-tools ${bpmTools}, aubio ${steadyTempo(beats)}`);
  t.true(Math.min(...errors) <= 1, `heard bpm-tools ${bpmTools}, aubio ${steadyTempo(beats)}; asked 97`);
});
