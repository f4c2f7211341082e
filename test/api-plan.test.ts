/**
 * The composition plan of POST /v1/generate (issue 16, item 2): `sections` checked at the edge with a 400
 * naming the section and field, the plan's length measured at the tempo and stored as the task's duration, and
 * a real render through a server process that plays it exactly: boundaries on bar lines at the reported times
 * (whole samples), heard by independent analysers where each section's instruments change, and the plan
 * returned by GET accepted back unchanged to give the same form.
 */
import test, { type ExecutionContext } from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorOf, startApp } from './helpers/app.ts';
import { generateRefusals, type Refusal } from './helpers/refusals.ts';
import { startServerProcess, tempDataDir } from './helpers/process.ts';
import { bandShare } from './helpers/analysis/bands.ts';
import { onsets } from './helpers/analysis/onsets.ts';
import { monoMix, readWav } from './helpers/analysis/wav.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

const prompt = 'an upbeat pop song';

const refusals: Refusal[] = [
  {
    title: 'an empty plan',
    body: { sections: [] },
    code: 'out_of_range',
    param: 'sections',
    message: /at least one section/,
  },
  {
    title: 'a plan that is not a list',
    body: { sections: { kind: 'verse' } },
    code: 'invalid_type',
    param: 'sections',
    message: /must be an array of sections/,
  },
  {
    title: 'more than 30 sections',
    body: { sections: Array.from({ length: 31 }, () => ({ kind: 'verse', bars: 1 })) },
    code: 'out_of_range',
    param: 'sections',
    message: /lists 31 sections; the limit is 30/,
  },
  {
    title: 'an unknown kind',
    body: { sections: [{ kind: 'hook', bars: 8 }] },
    code: 'invalid_value',
    param: 'sections[0].kind',
    message: /sections\[0\]\.kind is "hook"; use one of: intro, verse, prechorus, chorus/,
  },
  {
    title: 'a section without a kind',
    body: { sections: [{ bars: 8 }] },
    code: 'missing_field',
    param: 'sections[0].kind',
    message: /use one of/,
  },
  {
    title: 'fractional bars',
    body: { sections: [{ kind: 'verse', bars: 8.5 }] },
    code: 'invalid_type',
    param: 'sections[0].bars',
    message: /whole number of bars/,
  },
  {
    title: 'both bars and seconds',
    body: { sections: [{ kind: 'verse', bars: 8, seconds: 20 }] },
    code: 'conflicting_fields',
    param: 'sections[0].seconds',
    message: /both "bars" and "seconds"/,
  },
  {
    title: 'an energy above 1',
    body: { sections: [{ kind: 'verse', bars: 16, energy: 2 }] },
    code: 'out_of_range',
    param: 'sections[0].energy',
    message: /between 0 and 1, not 2/,
  },
  {
    title: 'an unknown instrument',
    body: { sections: [{ kind: 'verse', bars: 16, instruments: ['kazoo'] }] },
    code: 'unknown_instrument',
    param: 'sections[0].instruments',
    message: /"kazoo"/,
  },
  {
    title: 'an unknown field in a section',
    body: { sections: [{ kind: 'verse', bars: 16, tempo: 90 }] },
    code: 'unknown_field',
    param: 'sections[0].tempo',
    message: /Unknown field "tempo" in sections\[0\]/,
  },
  {
    title: 'a plan too short for a track',
    body: { bpm: 120, sections: [{ kind: 'verse', bars: 4 }] },
    code: 'out_of_range',
    param: 'sections',
    message: /The plan lasts 8 s at this tempo; a track must be 30–180 s/,
  },
  {
    title: 'a plan too long for a track',
    body: { bpm: 120, sections: [{ kind: 'verse', bars: 100 }] },
    code: 'out_of_range',
    param: 'sections',
    message: /The plan lasts 200 s/,
  },
  {
    title: 'duration with a fully sized plan',
    body: { duration: 60, sections: [{ kind: 'verse', bars: 30 }] },
    code: 'conflicting_fields',
    param: 'duration',
    message: /"duration" cannot be given when every section has "bars" or "seconds"/,
  },
  {
    title: 'section lyrics on an instrumental',
    body: { instrumental: true, sections: [{ kind: 'verse', bars: 30, lyrics: 'la la la' }] },
    code: 'conflicting_fields',
    param: 'sections',
    message: /cannot be sung with "instrumental": true/,
  },
  {
    title: 'a control character in section lyrics, as top-level lyrics refuses it',
    body: { sections: [{ kind: 'verse', bars: 30, lyrics: 'la\u0007la' }] },
    code: 'invalid_characters',
    param: 'sections[0].lyrics',
    message: /control character/,
  },
  {
    title: 'section lyrics beside top-level lyrics',
    body: { lyrics: 'la', sections: [{ kind: 'verse', bars: 30, lyrics: 'la la la' }] },
    code: 'conflicting_fields',
    param: 'lyrics',
    message: /cannot both be given/,
  },
  {
    title: 'more lines than a section holds',
    body: {
      bpm: 120,
      sections: [
        { kind: 'verse', bars: 2, lyrics: 'one line here\ntwo lines here\nthree lines here\nfour lines here' },
        { kind: 'chorus', bars: 20 },
      ],
    },
    code: 'invalid_value',
    param: 'sections',
    message: /line/,
  },
  {
    title: 'a plan on a loop',
    body: { loop: true, sections: [{ kind: 'verse', bars: 30 }] },
    code: 'conflicting_fields',
    param: 'sections',
    message: /cannot be used with "loop"/,
  },
];

generateRefusals(prompt, refusals, 'the place');

test("a plan sets the task's duration: its bars at the tempo, seconds rounded to whole bars", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  // 120 bpm in 4/4: 2 s a bar. 4 + 10 (19 s -> 9.5 -> 10 bars) + 8 = 22 bars = 44 s.
  const sections = [
    { kind: 'intro', bars: 4 },
    { kind: 'verse', seconds: 19 },
    { kind: 'chorus', bars: 8, energy: 1, instruments: ['drums', 'Piano'] },
  ];
  const res = await app.call(key, '/v1/generate', { json: { prompt, bpm: 120, sections } });
  t.is(res.status, 202, await res.clone().text());
  const stored = await app.store.getGeneration(account.id, (await res.json()).id);
  t.is(stored?.duration, 44);
  t.deepEqual(stored?.plan, [
    { kind: 'intro', bars: 4 },
    { kind: 'verse', seconds: 19 },
    { kind: 'chorus', bars: 8, energy: 1, instruments: ['drums', 'piano'] },
  ]);
});

test('one spelling per section kind (issue 26): "prechorus" as responses say it, the old "pre_chorus" and the kinds `sections` reports read as their plan kinds', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  // What a generation's top-level `sections` may report, sent back as it is (start and end are read and ignored).
  const reported = [
    { kind: 'intro', start: 0, end: 8, bars: 4 },
    { kind: 'theme', start: 8, end: 16, bars: 4 },
    { kind: 'build', start: 16, end: 20, bars: 2 },
    { kind: 'prechorus', start: 20, end: 24, bars: 2 },
    { kind: 'pre_chorus', start: 24, end: 28, bars: 2 },
    { kind: 'climax', start: 28, end: 36, bars: 4 },
  ];
  const res = await app.call(key, '/v1/generate', { json: { prompt, bpm: 120, sections: reported } });
  t.is(res.status, 202, await res.clone().text());
  const stored = await app.store.getGeneration(account.id, (await res.json()).id);
  t.deepEqual(
    stored?.plan?.map((s) => s.kind),
    ['intro', 'verse', 'prechorus', 'prechorus', 'prechorus', 'chorus'],
  );
});

test('per-section lyrics are kept with the task, line breaks as LF', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: {
      prompt,
      bpm: 120,
      sections: [
        { kind: 'intro', bars: 4 },
        { kind: 'verse', bars: 12, lyrics: 'City lights are fading slow\r\nI walk the road alone' },
      ],
    },
  });
  t.is(res.status, 202, await res.clone().text());
  const stored = await app.store.getGeneration(account.id, (await res.json()).id);
  t.is(stored?.plan?.[1]?.lyrics, 'City lights are fading slow\nI walk the road alone');
});

test('sections without a length share what duration leaves, in whole bars', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const res = await app.call(key, '/v1/generate', {
    json: {
      prompt,
      bpm: 120,
      duration: 60,
      sections: [{ kind: 'intro', bars: 4 }, { kind: 'verse' }, { kind: 'outro' }],
    },
  });
  t.is(res.status, 202, await res.clone().text());
  t.is((await app.store.getGeneration(account.id, (await res.json()).id))?.duration, 60);
});

test('an unsized plan at the edges is accepted whatever the seed, inside 30–180 s; one with no room is a 400', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('enterprise', { monthly: 1000, rpm: 1000 });
  for (const duration of [30, 180])
    for (let seed = 0; seed < 16; seed++) {
      const res = await app.call(key, '/v1/generate', {
        json: { prompt, duration, seed, instrumental: true, sections: [{ kind: 'verse' }] },
      });
      t.is(res.status, 202, `${duration} s, seed ${seed}: ${await res.clone().text()}`);
      const stored = (await app.store.getGeneration(account.id, (await res.json()).id))!;
      t.true(stored.duration >= 30 && stored.duration <= 180, String(stored.duration));
    }
  const res = await app.call(key, '/v1/generate', {
    json: { prompt, bpm: 40, instrumental: true, sections: Array.from({ length: 30 }, () => ({ kind: 'verse' })) },
  });
  t.is(res.status, 400);
  t.like(await errorOf(res), { code: 'invalid_value', param: 'sections' });
});

type Plan = { kind: string; bars: number; energy: number; instruments: string[]; start: number; end: number }[];

async function renderThroughApi(
  t: ExecutionContext,
  server: { url: string },
  headers: Record<string, string>,
  body: Record<string, unknown>,
) {
  const created = await fetch(`${server.url}/v1/generate`, { method: 'POST', headers, body: JSON.stringify(body) });
  t.is(created.status, 202, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  return awaitCompleted(server.url, headers, id, 180_000);
}

test('a real render plays the plan exactly: boundaries on bar lines at whole samples, heard where the instruments change, and the returned plan sent back gives the same form', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir);
  const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  // Pad-only sections between drums-only ones: each boundary is where the hats and kicks start or stop.
  const sections = [
    { kind: 'intro', bars: 4, energy: 0.3, instruments: ['pad'] },
    { kind: 'verse', bars: 4, energy: 1, instruments: ['drums'] },
    { kind: 'breakdown', bars: 4, energy: 0.3, instruments: ['pad'] },
    { kind: 'chorus', bars: 4, energy: 1, instruments: ['drums'] },
  ];
  const body = {
    prompt: 'an upbeat pop song with drums and synth pads',
    style: 'pop',
    seed: 77,
    instrumental: true,
    bpm: 120,
    time_signature: '4/4',
    sections,
  };
  const done = await renderThroughApi(t, server, headers, body);
  const plan = done.plan as Plan;
  t.deepEqual(
    plan.map((s) => [s.kind, s.bars, s.energy, s.instruments]),
    sections.map((s) => [s.kind, s.bars, s.energy, s.instruments]),
  );
  // 2 s a bar: starts 0, 8, 16, 24 s; each a whole number of samples and a bar line.
  t.deepEqual(
    plan.map((s) => s.start),
    [0, 8, 16, 24],
  );
  t.is(plan.at(-1)!.end, 32);
  for (const s of plan) t.true(Number.isInteger(s.start * 44100) && Number.isInteger(s.start / 2));
  t.deepEqual(
    (done.sections as { start: number }[]).map((s) => s.start),
    [0, 8, 16, 24],
  );

  const wav = join(dataDir, 'plan.wav');
  await writeFile(wav, new Uint8Array(await (await fetch(done.download_urls.wav)).arrayBuffer()));
  const audio = await readWav(wav);
  t.is(audio.frames, 32 * 44100);
  const mono = monoMix(audio);
  const window = (from: number, to: number) =>
    mono.subarray(Math.round(from * audio.sampleRate), Math.round(to * audio.sampleRate));
  const drumsShare = (from: number, to: number) => bandShare(window(from, to), audio.sampleRate, 5000, 16000);
  // The drums' band owns far more of the sound just after a drums section starts than just before it, and the
  // reverse where a pad section takes over (0.1 s kept clear of each boundary for releases and reverb).
  for (const boundary of [8, 24])
    t.true(
      drumsShare(boundary + 0.1, boundary + 1.9) > 4 * drumsShare(boundary - 1.9, boundary - 0.1),
      `drums start at ${boundary} s`,
    );
  t.true(drumsShare(14.1, 15.9) > 4 * drumsShare(16.5, 18.5), 'drums stop at 16 s');
  // aubio hears an onset at each drums section's first downbeat (within 25 ms: its hop and the humanizing).
  const heard = await onsets(wav, { method: 'hfc' });
  for (const boundary of [8, 24])
    t.true(
      heard.some((time) => Math.abs(time - boundary) < 0.025),
      `an onset at ${boundary} s: ${heard.filter((x) => Math.abs(x - boundary) < 1).join(', ')}`,
    );

  const again = await renderThroughApi(t, server, headers, { ...body, sections: plan });
  t.deepEqual(again.plan, plan);
});
