/**
 * Determinism: the same request and seed give a byte-identical WAV — across two renders on two
 * different pool threads, and against golden hashes stored in test/fixtures/golden-hashes.json —
 * and another seed gives a different one.
 *
 * The golden hashes pin the engine's exact output, so ANY intended change to composition, rendering or
 * encoding changes them. After such a change, listen, then regenerate with:
 *
 *   UPDATE_GOLDEN=1 npx ava test/engine/determinism.test.ts
 */
import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import type { GenerationRequest } from '../../engine/index.ts';
import { createTrackRenderer, type TrackRenderer } from '../helpers/analysis/renders.ts';

const GOLDEN_FILE = new URL('../fixtures/golden-hashes.json', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Fixed requests: one with a named style, one inferred from the prompt with drums excluded, one sung. */
const FIXED: Record<string, GenerationRequest> = {
  'lofi-style-seed-1': { prompt: 'rainy night study beats', duration: 8, style: 'lofi', instrumental: true, seed: 1 },
  'prompt-only-seed-2024': {
    prompt: 'happy upbeat pop song in G major at 120 bpm, no drums',
    duration: 8,
    style: null,
    instrumental: true,
    seed: 2024,
  },
  'sung-folk-seed-9': {
    prompt: 'a happy folk song about summer with a female singer',
    duration: 16,
    style: null,
    instrumental: false,
    seed: 9,
  },
};

interface GoldenFile {
  note: string;
  hashes: Record<string, { request: GenerationRequest; sha256: string }>;
}

let renderer: TrackRenderer;
test.before(async () => {
  renderer = await createTrackRenderer({ prefix: 'tunesmith-determinism-' });
});
test.after.always(async () => {
  await renderer?.close();
});

async function readGolden(): Promise<GoldenFile | null> {
  try {
    return JSON.parse(await readFile(GOLDEN_FILE, 'utf8')) as GoldenFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

for (const [name, request] of Object.entries(FIXED)) {
  test(`${name}: two renders of the same request on two threads are byte-identical`, async (t) => {
    // Different cache names, so they are really rendered twice (and, with two threads, in parallel).
    const [a, b] = await Promise.all([renderer.render(`${name}-a`, request), renderer.render(`${name}-b`, request)]);
    t.true(a.track.wav.byteLength > 44, 'empty WAV');
    t.is(a.sha256, b.sha256);
  });
}

test('another seed gives a different WAV', async (t) => {
  const [name, request] = Object.entries(FIXED)[0]!;
  const [a, b] = await Promise.all([
    renderer.render(`${name}-a`, request),
    renderer.render(`${name}-reseeded`, { ...request, seed: request.seed + 1 }),
  ]);
  t.not(a.sha256, b.sha256);
});

test.serial('the fixed requests still render to their golden sha256 (UPDATE_GOLDEN=1 rewrites them)', async (t) => {
  const actual: GoldenFile['hashes'] = {};
  for (const [name, request] of Object.entries(FIXED)) {
    actual[name] = { request, sha256: (await renderer.render(`${name}-a`, request)).sha256 };
  }
  if (UPDATE) {
    const golden: GoldenFile = {
      note: 'sha256 of the WAV for each fixed request in test/engine/determinism.test.ts. Regenerate after an intended engine change: UPDATE_GOLDEN=1 npx ava test/engine/determinism.test.ts',
      hashes: actual,
    };
    await writeFile(GOLDEN_FILE, `${JSON.stringify(golden, null, 2)}\n`);
    t.log(`rewrote ${GOLDEN_FILE.pathname}`);
  }
  const golden = await readGolden();
  if (!golden)
    return t.fail(`no ${GOLDEN_FILE.pathname}: create it with UPDATE_GOLDEN=1 npx ava test/engine/determinism.test.ts`);
  for (const [name, { request, sha256 }] of Object.entries(actual)) {
    const stored = golden.hashes[name];
    if (!stored) {
      t.fail(`no golden entry for ${name}: regenerate with UPDATE_GOLDEN=1`);
      continue;
    }
    t.deepEqual(
      stored.request,
      request,
      `golden entry for ${name} was made for another request: regenerate with UPDATE_GOLDEN=1`,
    );
    t.is(
      sha256,
      stored.sha256,
      `${name}: the WAV changed. If the engine was changed on purpose, listen to it and regenerate with UPDATE_GOLDEN=1 npx ava test/engine/determinism.test.ts; otherwise something made rendering nondeterministic or changed the output by accident.`,
    );
  }
});
