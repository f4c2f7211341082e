/**
 * Determinism: the same request and seed give a byte-identical WAV — across two renders on two
 * different pool threads, and against golden hashes stored in test/fixtures/golden-hashes.json —
 * and another seed gives a different one.
 *
 * The golden hashes pin the engine's exact output, so ANY intended change to composition, rendering or
 * encoding changes them. After such a change, listen, then regenerate on both supported Node lines with:
 *
 *   npm run golden
 *
 * Hashes are kept per Math.pow: V8 13 (Node 24) rounds some non-integer powers differently in the last
 * place from V8 12 (Node 22), which can move one sample by one LSB in a sung track (measured: 1 byte of
 * 1.4 MB). Output is byte-identical for a given Node line, so each line keeps its own hashes.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
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

type Hashes = Record<string, { request: GenerationRequest; sha256: string }>;

interface GoldenFile {
  note: string;
  /** Hashes by Math.pow fingerprint (see the header), each with the Node version that recorded them. */
  platforms: Record<string, { recordedOn: string; hashes: Hashes }>;
}

/** A fingerprint of how this runtime rounds Math.pow for non-integer exponents, the one Math function whose
 * results differ between the supported Node lines. */
function powFingerprint(): string {
  const hash = createHash('sha256');
  const values = new Float64Array(4096);
  let x = 0.5;
  for (let i = 0; i < values.length; i++) {
    x = (x * 9301 + 49297) % 233280;
    values[i] = (x / 2333) ** (((i % 97) - 48) / 13.7);
  }
  hash.update(new Uint8Array(values.buffer));
  return `pow-${hash.digest('hex').slice(0, 12)}`;
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
  const actual: Hashes = {};
  for (const [name, request] of Object.entries(FIXED)) {
    actual[name] = { request, sha256: (await renderer.render(`${name}-a`, request)).sha256 };
  }
  const platform = powFingerprint();
  if (UPDATE) {
    const previous = await readGolden();
    const golden: GoldenFile = {
      note: 'sha256 of the WAV for each fixed request in test/engine/determinism.test.ts, per Math.pow fingerprint (see its header). Regenerate after an intended engine change: npm run golden',
      platforms: { ...previous?.platforms, [platform]: { recordedOn: process.version, hashes: actual } },
    };
    await writeFile(GOLDEN_FILE, `${JSON.stringify(golden, null, 2)}\n`);
    t.log(`rewrote the ${platform} hashes (${process.version}) in ${GOLDEN_FILE.pathname}`);
  }
  const golden = await readGolden();
  const recorded = golden?.platforms[platform];
  if (!recorded) {
    const known = Object.values(golden?.platforms ?? {}).map((p) => p.recordedOn);
    return t.fail(
      `no golden hashes for this runtime's Math.pow (${platform}, ${process.version}; recorded on: ${known.join(', ') || 'none'}): record them with npm run golden`,
    );
  }
  for (const [name, { request, sha256 }] of Object.entries(actual)) {
    const stored = recorded.hashes[name];
    if (!stored) {
      t.fail(`no golden entry for ${name}: regenerate with npm run golden`);
      continue;
    }
    t.deepEqual(
      stored.request,
      request,
      `golden entry for ${name} was made for another request: regenerate with npm run golden`,
    );
    t.is(
      sha256,
      stored.sha256,
      `${name}: the WAV changed (hashes recorded on ${recorded.recordedOn}). If the engine was changed on purpose, listen to it and regenerate with npm run golden; otherwise something made rendering nondeterministic or changed the output by accident.`,
    );
  }
});
