/**
 * Odd input is a 4xx or a success, never a 5xx (issue 29, point 1): property tests with fast-check over lyrics in
 * many scripts, section lyrics, prompts and plan fields, through the real validation (POST /v1/generate, …/extend
 * and …/remix on an in-process app) and the engine's lyric parser. Runs are bounded and the seed is fixed, so a
 * failure is the same failure on every machine; fast-check prints the smallest body that fails.
 */
import test from 'ava';
import fc from 'fast-check';
import { EngineError, PLAN_KINDS, checkRequest } from '../engine/index.ts';
import { parseLyrics } from '../engine/lyrics/index.ts';
import { startApp, type TestApp } from './helpers/app.ts';

const SEED = 29;

/** Words in scripts the singer does not read, controls, lone surrogates, tags and blank lines among plain text. */
const piece = fc.oneof(
  { arbitrary: fc.constantFrom('city lights', 'we run', 'all night long', 'rain', 'hello'), weight: 4 },
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    'привет мир',
    'שלום עולם',
    'مرحبا',
    'γειά σου',
    '你好世界',
    'こんにちは',
    'ß',
    '١٢٣',
    'naïve café',
    '\u0000',
    '\u001b[31m',
    '\ud800',
    '\u200b',
    '[Chorus]',
    '[Pre-Chorus]',
    '   ',
    'la la la',
    "don't stop",
  ),
);
const text = fc
  .array(fc.tuple(piece, fc.constantFrom(' ', '\n', '\r\n', '')), { maxLength: 6 })
  .map((parts) => parts.map(([word, gap]) => word + gap).join(''));
const oddNumber = fc.oneof(
  fc.integer({ min: -5, max: 400 }),
  fc.double({ min: -10, max: 400, noNaN: true }),
  fc.constantFrom(0, 1, 0.5, 1e9, -0, '8', null, true),
);
/** Mostly a value in range, sometimes an odd one: most runs then get past the first field to the next. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 4 }, oddNumber);
const instruments = fc.array(fc.constantFrom('piano', 'Drums', 'bass', 'kazoo', '', 'пианино', 'lead', 'vocals'), {
  maxLength: 4,
});
const section = fc.record(
  {
    kind: fc.oneof(
      { arbitrary: fc.constantFrom(...PLAN_KINDS), weight: 4 },
      fc.constantFrom('pre_chorus', 'build', 'hook', '', 'VERSE'),
    ),
    bars: mostly(fc.integer({ min: 1, max: 16 })),
    seconds: oddNumber,
    energy: mostly(fc.double({ min: 0, max: 1, noNaN: true })),
    lyrics: text,
    instruments,
  },
  { requiredKeys: ['kind'] },
);
const sections = fc.array(section, { maxLength: 5 });

const generateBody = fc.record(
  {
    prompt: fc.oneof({ arbitrary: fc.constantFrom('an upbeat pop song', 'lofi piano, 80 bpm'), weight: 3 }, text),
    duration: mostly(fc.integer({ min: 30, max: 180 })),
    instrumental: fc.constantFrom(false, false, true),
    lyrics: text,
    sections,
    bpm: mostly(fc.integer({ min: 60, max: 160 })),
    key: fc.oneof({ arbitrary: fc.constantFrom('F# minor', 'Bb major'), weight: 4 }, text, fc.constant('H dorian')),
    energy: mostly(fc.double({ min: 0, max: 1, noNaN: true })),
    exclude: fc.oneof({ arbitrary: fc.constantFrom([], ['drums']), weight: 4 }, instruments),
  },
  { requiredKeys: ['prompt'] },
);

/** An account with room for every run: no quota, no rate limit in the way of the property. */
async function roomyAccount(app: TestApp): Promise<string> {
  return (await app.account('enterprise', { rpm: 1_000_000, monthly: null })).key;
}

/** Statuses (and error codes) seen, so a test can tell that its runs reached both refusals and accepted tasks. */
type Seen = Map<string, number>;

const reachedBoth = (seen: Seen): boolean =>
  seen.has('202') && [...seen.keys()].some((what) => what.startsWith('400 '));

async function expectNo5xx(app: TestApp, key: string, path: string, body: unknown, seen: Seen): Promise<boolean> {
  const res = await app.call(key, path, { json: body });
  const answer = await res.text();
  const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  if (res.status >= 500) return false;
  if (res.status >= 400) {
    const { error } = JSON.parse(answer) as { error: { code: string; message: string } };
    count(`${res.status} ${error.code}`);
    return typeof error.code === 'string' && error.message.length > 0;
  }
  count(String(res.status));
  return true;
}

test('POST /v1/generate answers odd lyrics, prompts and plans with a 4xx or a 202, never a 5xx', async (t) => {
  const app = await startApp(t);
  const key = await roomyAccount(app);
  const seen: Seen = new Map();
  await fc.assert(
    fc.asyncProperty(generateBody, (body) => expectNo5xx(app, key, '/v1/generate', { ...body, seed: 7 }, seen)),
    { seed: SEED, numRuns: 150 },
  );
  t.log(Object.fromEntries(seen));
  t.true(reachedBoth(seen));
});

test('POST …/extend and …/remix answer odd section lyrics and plan fields with a 4xx or a 202, never a 5xx', async (t) => {
  const app = await startApp(t);
  const key = await roomyAccount(app);
  const played = [
    { kind: 'intro', bars: 4, energy: 0.3, instruments: ['pad'], start: 0, end: 8 },
    { kind: 'verse', bars: 4, energy: 0.6, instruments: ['drums', 'bass', 'chords'], start: 8, end: 16 },
    { kind: 'chorus', bars: 4, energy: 0.9, instruments: ['drums', 'bass', 'chords', 'lead'], start: 16, end: 24 },
    { kind: 'outro', bars: 4, energy: 0.3, instruments: ['pad', 'chords'], start: 24, end: 32 },
  ];
  const sources: string[] = [];
  for (const instrumental of [false, true]) {
    const res = await app.call(key, '/v1/generate', {
      json: { prompt: 'a chill lofi beat', duration: 32, seed: 4242, instrumental },
    });
    const { id } = (await res.json()) as { id: string };
    await app.jobs.complete(id, 'Source', { bpm: 120, key: 'Eb major', meter: '4/4', plan: played });
    sources.push(id);
  }
  const remix = fc.record(
    {
      section: mostly(fc.integer({ min: 0, max: 3 })),
      energy: mostly(fc.double({ min: 0, max: 1, noNaN: true })),
      instruments,
      lyrics: text,
      seed: mostly(fc.integer({ min: 0, max: 1000 })),
    },
    { requiredKeys: [] },
  );
  const extend = fc.record({ seconds: mostly(fc.integer({ min: 1, max: 100 })), sections }, { requiredKeys: [] });
  const seen: Seen = new Map();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...sources),
      fc.oneof(
        remix.map((body) => ['remix', body] as const),
        extend.map((body) => ['extend', body] as const),
      ),
      (source, [operation, body]) => expectNo5xx(app, key, `/v1/generation/${source}/${operation}`, body, seen),
    ),
    { seed: SEED, numRuns: 120 },
  );
  t.log(Object.fromEntries(seen));
  t.true(reachedBoth(seen));
});

test("the engine's lyric parser and checks refuse odd lyrics with an engine error (a 400), never a crash", (t) => {
  fc.assert(
    fc.property(text, (lyrics) => {
      try {
        parseLyrics(lyrics);
        checkRequest({ prompt: 'a pop song', duration: 30, style: null, instrumental: false, seed: 1, lyrics });
        return true;
      } catch (error) {
        return error instanceof EngineError;
      }
    }),
    { seed: SEED, numRuns: 300 },
  );
  t.pass();
});
