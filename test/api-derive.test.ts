/**
 * POST /v1/generation/{id}/extend and …/remix (issue 16, items 4 and 5): the new task is the source's request
 * pinned to what it played (tempo, key, meter, plan) and changed as asked, refused with a sentence when it cannot
 * be made, counted and replayed like any task; and, through a real server process, the rendered track keeps the
 * source's bytes outside the changed region and its new material is in the source's key and tempo, as
 * independent analysers hear it.
 */
import test, { type ExecutionContext } from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import wavefile from 'wavefile';
import { currentBackend, errorOf, startApp, type TestApp } from './helpers/app.ts';
import { startServerProcess, tempDataDir } from './helpers/process.ts';
import { key as heardKey, pitchClassOf } from './helpers/analysis/key.ts';
import { aubioBeats } from './helpers/analysis/tempo.ts';
import { steadyTempo, tempoError } from './helpers/analysis/field-fidelity.ts';
import type { Json } from './helpers/json.ts';
import { awaitCompleted } from './helpers/long-poll.ts';

const prompt = 'a chill lofi beat';
/** What a 32 s source at 120 bpm played: 2 s bars, four sections, the last its ending. */
const played = [
  { kind: 'intro', bars: 4, energy: 0.3, instruments: ['pad'], start: 0, end: 8 },
  { kind: 'verse', bars: 4, energy: 0.6, instruments: ['drums', 'bass', 'chords'], start: 8, end: 16 },
  { kind: 'chorus', bars: 4, energy: 0.9, instruments: ['drums', 'bass', 'chords', 'lead'], start: 16, end: 24 },
  { kind: 'outro', bars: 4, energy: 0.3, instruments: ['pad', 'chords'], start: 24, end: 32 },
];
const playedFacts = {
  bpm: 120,
  key: 'Eb major',
  meter: '4/4',
  plan: played,
  sections: played.map(({ kind, start, end, bars }) => ({ kind, start, end, bars })),
};

async function completedSource(
  app: TestApp,
  key: string,
  body: Record<string, unknown> = {},
  facts: Record<string, unknown> = playedFacts,
): Promise<string> {
  const res = await app.call(key, '/v1/generate', {
    json: { prompt, duration: 32, seed: 4242, instrumental: true, ...body },
  });
  const { id } = (await res.json()) as { id: string };
  await app.jobs.complete(id, 'Source', facts);
  return id;
}

test("POST …/extend makes a task that keeps the source's bars up to its ending, adds the seconds asked before a new ending, and pins what the source played", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const source = await completedSource(app, key);
  const res = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 16 } });
  t.is(res.status, 202, await res.clone().text());
  const body = (await res.json()) as Json;
  t.is(res.headers.get('location'), `/v1/generation/${body.id}`);
  t.deepEqual(body.source, { id: source, operation: 'extend' });
  const stored = (await app.store.getGeneration(account.id, body.id))!;
  // The new material is asked for in seconds, as a plan section may be: 16 s at 120 bpm is 8 bars.
  t.deepEqual(
    stored.plan?.map((s) => [s.kind, s.bars ?? `${s.seconds} s`]),
    [
      ['intro', 4],
      ['verse', 4],
      ['chorus', 4],
      ['chorus', '16 s'],
      ['outro', 4],
    ],
  );
  t.is(stored.duration, 48);
  t.is(stored.seed, 4242);
  t.like(stored.music, { bpm: 120, key: 'Eb major', timeSignature: '4/4' });
  t.is(app.jobs.queued.at(-1)?.id, body.id);
  // GET shows where it came from too.
  t.deepEqual(((await (await app.call(key, `/v1/generation/${body.id}`)).json()) as Json).source, {
    id: source,
    operation: 'extend',
  });
});

test("POST …/extend with sections plays them after the source's bars in place of its ending", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const source = await completedSource(app, key);
  const res = await app.call(key, `/v1/generation/${source}/extend`, {
    json: {
      sections: [
        { kind: 'bridge', bars: 4 },
        { kind: 'outro', bars: 2, energy: 0.2 },
      ],
    },
  });
  t.is(res.status, 202, await res.clone().text());
  const stored = (await app.store.getGeneration(account.id, ((await res.json()) as { id: string }).id))!;
  t.deepEqual(
    stored.plan?.map((s) => [s.kind, s.bars]),
    [
      ['intro', 4],
      ['verse', 4],
      ['chorus', 4],
      ['bridge', 4],
      ['outro', 2],
    ],
  );
  t.is(stored.duration, 36);
});

test('POST …/remix changes only the section asked for, keeps the seed, and says which section', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const source = await completedSource(app, key);
  const res = await app.call(key, `/v1/generation/${source}/remix`, {
    json: { section: 1, energy: 1, instruments: ['Piano', 'drums'] },
  });
  t.is(res.status, 202, await res.clone().text());
  const body = (await res.json()) as Json;
  t.deepEqual(body.source, { id: source, operation: 'remix', section: 1 });
  const stored = (await app.store.getGeneration(account.id, body.id))!;
  t.deepEqual(stored.plan?.[1], { kind: 'verse', bars: 4, energy: 1, instruments: ['piano', 'drums'] });
  t.deepEqual(
    stored.plan?.filter((_, i) => i !== 1),
    played
      .filter((_, i) => i !== 1)
      .map(({ kind, bars, energy, instruments }) => ({ kind, bars, energy, instruments })),
  );
  t.is(stored.seed, 4242);
  t.is(stored.duration, 32);
});

test('POST …/remix with only "section" composes it anew from a new seed, which the new generation reports', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const source = await completedSource(app, key);
  const seeds = new Set<number>();
  for (const attempt of [1, 2]) {
    const res = await app.call(key, `/v1/generation/${source}/remix`, { json: { section: 2 } });
    t.is(res.status, 202, await res.clone().text());
    const body = (await res.json()) as Json;
    t.deepEqual(body.source, { id: source, operation: 'remix', section: 2 });
    const stored = (await app.store.getGeneration(account.id, body.id))!;
    t.is(body.seed, stored.seed, `attempt ${attempt}`);
    t.not(stored.seed, 4242);
    seeds.add(stored.seed);
    // The plan is the source's as played: only the seed makes the section new.
    t.deepEqual(
      stored.plan,
      played.map(({ kind, bars, energy, instruments }) => ({ kind, bars, energy, instruments })),
    );
  }
  t.is(seeds.size, 2);
});

test("POST …/remix with new lyrics moves the source's sung lines into their sections and the new words into the one redone", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const lyricsTiming = [
    { text: 'first line', start: 8.5, end: 10 },
    { text: 'second line', start: 17, end: 19 },
  ];
  const source = await completedSource(
    app,
    key,
    { instrumental: false, lyrics: 'first line\nsecond line' },
    { ...playedFacts, lyrics_timing: lyricsTiming },
  );
  const res = await app.call(key, `/v1/generation/${source}/remix`, {
    json: { section: 2, lyrics: 'a brand new line' },
  });
  t.is(res.status, 202, await res.clone().text());
  const stored = (await app.store.getGeneration(account.id, ((await res.json()) as { id: string }).id))!;
  t.is(stored.lyrics, null);
  t.deepEqual(
    stored.plan?.map((s) => s.lyrics),
    [undefined, 'first line', 'a brand new line', undefined],
  );
});

test('a 48 kHz, 24-bit source is extended with its own audio options (spliced at 48 kHz)', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  const source = await completedSource(app, key, { sample_rate: 48000, bit_depth: 24 });
  const res = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 10 } });
  t.is(res.status, 202, await res.clone().text());
  const stored = (await app.store.getGeneration(account.id, ((await res.json()) as { id: string }).id))!;
  t.like(stored.encoding, { sample_rate: 48000, bit_depth: 24 });
});

test("POST …/remix puts a sung line reported a fraction of a millisecond before its section's start in that section", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account();
  // Line starts are reported to the millisecond, section starts to the microsecond: the line at 8 s is sung from the verse's first beat (8.000151 s).
  const plan = played.map((s, i) => (i === 1 ? { ...s, start: 8.000151 } : i === 0 ? { ...s, end: 8.000151 } : s));
  const lyricsTiming = [
    { text: 'first line', start: 8, end: 10 },
    { text: 'second line', start: 17, end: 19 },
  ];
  const source = await completedSource(
    app,
    key,
    { instrumental: false, lyrics: 'first line\nsecond line' },
    { ...playedFacts, plan, lyrics_timing: lyricsTiming },
  );
  const res = await app.call(key, `/v1/generation/${source}/remix`, {
    json: { section: 2, lyrics: 'a brand new line' },
  });
  t.is(res.status, 202, await res.clone().text());
  const stored = (await app.store.getGeneration(account.id, ((await res.json()) as { id: string }).id))!;
  t.deepEqual(
    stored.plan?.map((s) => s.lyrics),
    [undefined, 'first line', 'a brand new line', undefined],
  );
});

const refusals: {
  title: string;
  path: 'extend' | 'remix';
  body: Record<string, unknown>;
  code: string;
  param: string;
  message: RegExp;
}[] = [
  {
    title: 'both seconds and sections',
    path: 'extend',
    body: { seconds: 10, sections: [{ kind: 'outro', bars: 2 }] },
    code: 'conflicting_fields',
    param: 'sections',
    message: /not both/,
  },
  {
    title: 'neither seconds nor sections',
    path: 'extend',
    body: {},
    code: 'missing_field',
    param: 'seconds',
    message: /"seconds" of new material/,
  },
  {
    title: 'seconds below 1',
    path: 'extend',
    body: { seconds: 0 },
    code: 'out_of_range',
    param: 'seconds',
    message: /between 1 and 150 seconds/,
  },
  {
    title: 'an extension past 180 s',
    path: 'extend',
    body: { seconds: 150 },
    code: 'out_of_range',
    param: 'seconds',
    message: /would last 182 s; a track must be 30–180 s\. This generation lasts 32 s/,
  },
  {
    title: 'an unknown field',
    path: 'extend',
    body: { seconds: 10, prompt: 'x' },
    code: 'unknown_field',
    param: 'prompt',
    message: /Allowed fields: seconds, sections/,
  },
  {
    title: 'no section',
    path: 'remix',
    body: { energy: 1 },
    code: 'missing_field',
    param: 'section',
    message: /index in the generation's "plan"/,
  },
  {
    title: 'a section past the last',
    path: 'remix',
    body: { section: 4, energy: 1 },
    code: 'out_of_range',
    param: 'section',
    message: /one of this generation's 4 sections: 0 to 3, not 4/,
  },
  {
    title: 'an energy above 1',
    path: 'remix',
    body: { section: 1, energy: 2 },
    code: 'out_of_range',
    param: 'energy',
    message: /energy must be between 0 and 1/,
  },
  {
    title: 'an unknown instrument',
    path: 'remix',
    body: { section: 1, instruments: ['kazoo'] },
    code: 'unknown_instrument',
    param: 'instruments',
    message: /"kazoo"/,
  },
  {
    title: 'lyrics on an instrumental',
    path: 'remix',
    body: { section: 1, lyrics: 'la la' },
    code: 'conflicting_fields',
    param: 'lyrics',
    message: /instrumental/,
  },
  {
    title: 'section lyrics in an extension of an instrumental (issue 29, point 5)',
    path: 'extend',
    body: { sections: [{ kind: 'verse', bars: 4, lyrics: 'la la' }] },
    code: 'conflicting_fields',
    param: 'sections',
    message: /instrumental, so an extension of it cannot be sung/,
  },
  {
    title: 'a NUL in remix lyrics, as top-level lyrics refuses it',
    path: 'remix',
    body: { section: 1, lyrics: 'la\u0000la' },
    code: 'invalid_characters',
    param: 'lyrics',
    message: /control character/,
  },
  {
    title: 'a terminal escape in section lyrics, as top-level lyrics refuses it',
    path: 'extend',
    body: { sections: [{ kind: 'verse', bars: 4, lyrics: 'la \u001b[31mla' }] },
    code: 'invalid_characters',
    param: 'sections[0].lyrics',
    message: /sections\[0\]\.lyrics contains a control character/,
  },
];

for (const refusal of refusals) {
  test(`POST …/${refusal.path} refuses ${refusal.title} with a 400 naming the field`, async (t) => {
    const app = await startApp(t);
    const { key } = await app.account();
    const source = await completedSource(app, key);
    const res = await app.call(key, `/v1/generation/${source}/${refusal.path}`, { json: refusal.body });
    t.is(res.status, 400);
    const error = await errorOf(res);
    t.like(error, { type: 'invalid_request_error', code: refusal.code, param: refusal.param });
    t.regex(error.message, refusal.message);
    t.is(app.jobs.queued.length, 0);
  });
}

test("another account's generation and an unknown id are the same 404", async (t) => {
  const app = await startApp(t);
  const owner = await app.account();
  const other = await app.account();
  const source = await completedSource(app, owner.key);
  for (const id of [source, 'gen_doesnotexist']) {
    const res = await app.call(other.key, `/v1/generation/${id}/extend`, { json: { seconds: 10 } });
    t.is(res.status, 404);
    t.like(await errorOf(res), { code: 'generation_not_found', param: 'id' });
  }
});

test('a source that is not completed, a loop, or from before plans were reported is a 409 saying what to do', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const pending = (
    (await (await app.call(key, '/v1/generate', { json: { prompt, duration: 32 } })).json()) as { id: string }
  ).id;
  const res = await app.call(key, `/v1/generation/${pending}/extend`, { json: { seconds: 10 } });
  t.is(res.status, 409);
  t.like(await errorOf(res), {
    type: 'conflict_error',
    code: 'source_not_completed',
    message: 'This generation is still processing; extend it once it is completed.',
  });
  const loop = await completedSource(app, key, { loop: true });
  const loopError = await errorOf(
    await app.call(key, `/v1/generation/${loop}/remix`, { json: { section: 0, energy: 1 } }),
  );
  t.is(loopError.code, 'source_is_loop');
  t.regex(loopError.message, /seamless loop.*to remix it/);
  const old = await completedSource(app, key, {}, {});
  const oldError = await errorOf(await app.call(key, `/v1/generation/${old}/extend`, { json: { seconds: 10 } }));
  t.is(oldError.code, 'source_without_plan');
  t.regex(oldError.message, /Render it again/);
});

test("after a downgrade, deriving is judged by the call asked for, not by the source's callback_url, stems or quality", async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('developer');
  const source = await completedSource(app, key, {
    callback_url: 'https://example.com/hook',
    stems: true,
    sample_rate: 48000,
    bit_depth: 24,
  });
  await app.store.updateAccount(account.id, { plan: 'starter' });
  for (const [operation, body, feature] of [
    ['extend', { seconds: 10 }, 'Extending tracks'],
    ['remix', { section: 1, energy: 0.9 }, 'Remixing sections of tracks'],
  ] as const) {
    const error = await errorOf(await app.call(key, `/v1/generation/${source}/${operation}`, { json: body }));
    // Starter has basic API access (src/domain/plans.ts): the call is what it lacks, and the message says only that.
    t.is(error.message, `${feature} are not available on the Starter plan. Upgrade to Developer or Enterprise.`);
  }
});

test('a source made with a callback_url passes it on to what is derived from it while the plan has webhooks', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('developer');
  const source = await completedSource(app, key, { callback_url: 'https://example.com/hook' });
  const res = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 10 } });
  t.is(res.status, 202, await res.clone().text());
  const made = (await app.store.getGeneration(account.id, ((await res.json()) as { id: string }).id))!;
  t.is(made.callback_url, 'https://example.com/hook');
});

test('an extension counts against the quota: 402 when the month is used up, nothing made', async (t) => {
  const app = await startApp(t);
  const { account, key } = await app.account('enterprise', { monthly: 1, rpm: 100 });
  const source = await completedSource(app, key);
  const res = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 10 } });
  t.is(res.status, 402);
  t.is((await app.store.listGenerations(account.id, { limit: 10, offset: 0 })).total, 1);
});

test('an Idempotency-Key replays the same derived task, and the same key on another source is a conflict', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const source = await completedSource(app, key);
  const other = await completedSource(app, key);
  const headers = { 'idempotency-key': 'derive-1' };
  const first = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 10 }, headers });
  const again = await app.call(key, `/v1/generation/${source}/extend`, { json: { seconds: 10 }, headers });
  t.is(again.status, 202);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(((await again.json()) as { id: string }).id, ((await first.json()) as { id: string }).id);
  const elsewhere = await app.call(key, `/v1/generation/${other}/extend`, { json: { seconds: 10 }, headers });
  t.is(elsewhere.status, 409);
  t.like(await errorOf(elsewhere), { code: 'idempotency_key_reused' });
});

// Real renders through a server process.

async function post(
  t: ExecutionContext,
  url: string,
  headers: Record<string, string>,
  path: string,
  body: Record<string, unknown>,
): Promise<Json> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  t.is(res.status, 202, await res.clone().text());
  return awaitCompleted(url, headers, ((await res.json()) as { id: string }).id);
}

async function pcmOf(done: Json): Promise<{ bytes: Uint8Array; dataStart: number; wav: Uint8Array }> {
  const wav = new Uint8Array(await (await fetch(done.download_urls.wav)).arrayBuffer());
  const file = new wavefile.WaveFile(wav);
  // The samples' bytes: headers may differ in length fields, the PCM must not.
  const data = (file as unknown as { data: { samples: Uint8Array } }).data.samples;
  return { bytes: data, dataStart: 0, wav };
}

const FRAME_BYTES = 4; // 16-bit stereo

// A server process on its data dir: the same on either backend run, so once (test/cluster-postgres.test.ts renders one through PostgreSQL workers).
const onFiles = currentBackend() === 'files' ? test : test.skip;

onFiles(
  "a real extend and remix keep the source's PCM byte for byte outside the changed region, and the new material is in its key and tempo",
  async (t) => {
    const dataDir = await tempDataDir(t);
    const server = await startServerProcess(t, dataDir);
    const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const source = await post(t, server.url, headers, '/v1/generate', {
      prompt: 'a chill lofi beat with piano and drums',
      style: 'lofi',
      seed: 4242,
      instrumental: true,
      bpm: 90,
      key: 'Eb major',
      duration: 30,
    });
    const original = await pcmOf(source);
    const plan = source.plan as { start: number; end: number }[];
    const cut = Math.round(plan.at(-1)!.start * 44100) * FRAME_BYTES;

    const extended = await post(t, server.url, headers, `/v1/generation/${source.id}/extend`, { seconds: 10 });
    t.deepEqual(extended.source, { id: source.id, operation: 'extend' });
    const longer = await pcmOf(extended);
    t.true(cut > 0 && cut < original.bytes.length);
    t.true(
      Buffer.from(longer.bytes.subarray(0, cut)).equals(Buffer.from(original.bytes.subarray(0, cut))),
      "every byte before the ending's bar line is the source's",
    );
    const seconds = longer.bytes.length / FRAME_BYTES / 44100;
    t.true(seconds > 30 + 8 && seconds < 30 + 14, `the extended track lasts ${seconds} s`);
    t.is(extended.key, source.key);
    t.is(extended.bpm, source.bpm);
    // What the analysers hear in the new material alone (from the cut to the end) and in the whole extended track.
    const tail = new wavefile.WaveFile();
    tail.fromScratch(2, 44100, '16', deinterleave(longer.bytes.subarray(cut)));
    const tailPath = join(dataDir, 'extension.wav');
    await writeFile(tailPath, tail.toBuffer());
    const heard = await heardKey(tailPath);
    t.is(heard.tonic, pitchClassOf('Eb'), `the extension is heard in ${JSON.stringify(heard)}`);
    const wholePath = join(dataDir, 'extended.wav');
    await writeFile(wholePath, longer.wav);
    const tempo = steadyTempo(await aubioBeats(wholePath));
    t.true((tempoError(tempo, 90) ?? Infinity) <= 1, `the extended track is heard at ${tempo} bpm`);

    const remixed = await post(t, server.url, headers, `/v1/generation/${source.id}/remix`, { section: 1, energy: 1 });
    t.deepEqual(remixed.source, { id: source.id, operation: 'remix', section: 1 });
    const redone = await pcmOf(remixed);
    const start = Math.round(plan[1]!.start * 44100) * FRAME_BYTES;
    const end = Math.round(plan[1]!.end * 44100) * FRAME_BYTES;
    t.is(redone.bytes.length, original.bytes.length);
    t.true(
      Buffer.from(redone.bytes.subarray(0, start)).equals(Buffer.from(original.bytes.subarray(0, start))),
      "bytes before the section are the source's",
    );
    t.true(
      Buffer.from(redone.bytes.subarray(end)).equals(Buffer.from(original.bytes.subarray(end))),
      "bytes after the section are the source's",
    );
    t.false(
      Buffer.from(redone.bytes.subarray(start, end)).equals(Buffer.from(original.bytes.subarray(start, end))),
      'the section itself is new',
    );
    // The redone section alone is heard in the source's key.
    const section = new wavefile.WaveFile();
    section.fromScratch(2, 44100, '16', deinterleave(redone.bytes.subarray(start, end)));
    const sectionPath = join(dataDir, 'redone-section.wav');
    await writeFile(sectionPath, section.toBuffer());
    const sectionKey = await heardKey(sectionPath);
    t.is(sectionKey.tonic, pitchClassOf('Eb'), `the redone section is heard in ${JSON.stringify(sectionKey)}`);
  },
);

onFiles(
  'a real remix of a sung section sings the new words there and keeps every other byte and sung line of the source',
  async (t) => {
    const dataDir = await tempDataDir(t);
    const server = await startServerProcess(t, dataDir);
    const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const lyrics =
      '[Verse]\nMorning light upon the window\nCoffee steaming in my hand\n\n[Chorus]\nSing it out and sing it loud\nDancing in the summer crowd';
    const source = await post(t, server.url, headers, '/v1/generate', {
      prompt: 'a happy acoustic folk song',
      duration: 30,
      seed: 9,
      lyrics,
    });
    type Line = { text: string; start: number; end: number; words: { text: string; start: number; end: number }[] };
    const sourceLines = source.metadata.lyrics_timing as Line[];
    const plan = source.plan as { kind: string; start: number; end: number }[];
    const chorusLine = sourceLines.find((line) => line.text === 'Sing it out and sing it loud')!;
    const index = plan.findIndex((s) => chorusLine.start >= s.start && chorusLine.start < s.end);
    t.true(index > 0, `the chorus is sung in a section of ${JSON.stringify(plan)}`);
    const section = plan[index]!;

    const remixed = await post(t, server.url, headers, `/v1/generation/${source.id}/remix`, {
      section: index,
      lyrics: 'Rivers running to the sea\nCarry all my songs to me',
    });
    const lines = remixed.metadata.lyrics_timing as Line[];
    const inside = (line: Line) => line.start >= section.start - 1e-6 && line.end <= section.end + 1e-6;
    t.deepEqual(
      lines.filter(inside).map((line) => line.text),
      ['Rivers running to the sea', 'Carry all my songs to me'],
    );
    // Lines outside the section are the source's, sung at the same times.
    const outside = (list: Line[]) =>
      list.filter((line) => !inside(line)).map(({ text, start, end }) => ({ text, start, end }));
    t.deepEqual(outside(lines), outside(sourceLines));
    t.true(outside(lines).length > 0);

    const original = await pcmOf(source);
    const redone = await pcmOf(remixed);
    const start = Math.round(section.start * 44100) * FRAME_BYTES;
    const end = Math.round(section.end * 44100) * FRAME_BYTES;
    t.is(redone.bytes.length, original.bytes.length);
    t.true(
      Buffer.from(redone.bytes.subarray(0, start)).equals(Buffer.from(original.bytes.subarray(0, start))),
      "bytes before the section are the source's",
    );
    t.true(
      Buffer.from(redone.bytes.subarray(end)).equals(Buffer.from(original.bytes.subarray(end))),
      "bytes after the section are the source's",
    );
    t.false(
      Buffer.from(redone.bytes.subarray(start, end)).equals(Buffer.from(original.bytes.subarray(start, end))),
      'the section is sung anew',
    );
  },
);

/** 16-bit little-endian interleaved stereo bytes → two channels of samples. */
function deinterleave(bytes: Uint8Array): [Int16Array, Int16Array] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames = bytes.byteLength / FRAME_BYTES;
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = view.getInt16(i * 4, true);
    right[i] = view.getInt16(i * 4 + 2, true);
  }
  return [left, right];
}

test('the OpenAPI document describes exactly the fields extend and remix accept', async (t) => {
  const app = await startApp(t);
  const doc = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as Json;
  t.deepEqual(Object.keys(doc.components.schemas.ExtendRequest.properties), ['seconds', 'sections']);
  t.deepEqual(Object.keys(doc.components.schemas.RemixRequest.properties).sort(), [
    'energy',
    'instruments',
    'lyrics',
    'section',
    'seed',
  ]);
  t.truthy(doc.paths['/v1/generation/{id}/extend']?.post && doc.paths['/v1/generations/{id}/remix']?.post);
});
