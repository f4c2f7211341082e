/**
 * The sampled instruments, judged from outside the engine: aubio hears each one at the pitch asked, velocity
 * brightens the sound (spectral centroid from the test helpers' own FFT), held notes loop without clicks,
 * repeated drum hits differ, and a name nothing plays is an error rather than a piano stand-in.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARTICULATIONS,
  PATCHES,
  type Articulation,
  type Note,
  type Role,
  type Score,
  type SongSpec,
} from '../../engine/types.ts';
import { SAMPLE_RATE } from '../../engine/render/index.ts';
import { mixScore, resolveInstrument } from '../../engine/render/mix.ts';
import { SAMPLED_INSTRUMENTS, SAMPLED_KITS, type SampledInstrument } from '../../engine/render/sampled/catalogue.ts';
import { soundBank } from '../../engine/render/sampled/bank.ts';
import { UnknownInstrumentError } from '../../engine/errors.ts';
import { encodeWav } from '../../engine/encode/index.ts';
import { aubioPitch } from '../helpers/analysis/pitch.ts';
import { chromaOf, spectralCentroidOf } from '../helpers/analysis.ts';

const spec = {
  prompt: 'test',
  duration: 1,
  seed: 5,
  genre: 'pop',
  blend: null,
  bpm: 120,
  meter: { beatsPerBar: 4, beatUnit: 4 },
  swing: 0,
  key: { tonic: 'C', mode: 'major' },
  valence: 0,
  arousal: 0,
  density: 0.5,
  form: 'song',
  instruments: [],
  excluded: [],
  effects: { reverb: 0, reverbDecay: 2, delay: 0, lofi: false, rain: false, brightness: 20000 },
  vocals: { enabled: false, gender: 'female' },
  lyrics: null,
  title: 'Test',
  trace: [],
  warnings: [],
} satisfies SongSpec;

/** The dry mix (no reverb, no master) of one part: what the instrument itself sounds like. */
async function dry(
  instrument: string,
  notes: Note[],
  role: Role = 'lead',
  key: SongSpec['key'] = spec.key,
): Promise<Float32Array> {
  const duration = Math.max(...notes.map((note) => note.time + note.duration)) + 0.6;
  const score: Score = {
    spec: { ...spec, duration, key },
    bpm: 120,
    beatsPerBar: 4,
    duration,
    sections: [],
    chords: [],
    scale: [0, 2, 4, 5, 7, 9, 11],
    vocal: null,
    parts: [{ role, instrument, notes, gainDb: 0, pan: 0 }],
  };
  const buses = await mixScore(score, Math.round(duration * SAMPLE_RATE));
  return buses.left.map((value, i) => (value + buses.right[i]!) / 2);
}

const note = (time: number, duration: number, midi: number, velocity = 0.7, articulation?: Articulation): Note => ({
  time,
  duration,
  midi,
  velocity,
  beat: 0,
  ...(articulation ? { articulation } : {}),
});

async function writeMono(t: { teardown(fn: () => Promise<void>): void }, signal: Float32Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-sampled-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'note.wav');
  await writeFile(path, encodeWav(signal, signal, SAMPLE_RATE));
  return path;
}

test('every sampled instrument, articulation and kit is a preset of the bundled bank', async (t) => {
  const bank = await soundBank();
  for (const [name, instrument] of Object.entries(SAMPLED_INSTRUMENTS) as [string, SampledInstrument][]) {
    t.true(bank.has(instrument, false), name);
    for (const [way, variant] of Object.entries(instrument.articulations ?? {}))
      t.true(bank.has(variant, false), `${name} ${way}`);
  }
  for (const [name, kit] of Object.entries(SAMPLED_KITS)) t.true(bank.has(kit, true), name);
});

test('every patch name resolves to something the renderer plays', (t) => {
  for (const patch of PATCHES) {
    const role: Role = patch.endsWith('Kit') || patch === 'orchestralPerc' ? 'drums' : 'lead';
    t.notThrows(() => resolveInstrument({ role, instrument: patch }), patch);
  }
});

test('an instrument nothing plays is an error, not a piano', (t) => {
  t.throws(() => resolveInstrument({ role: 'lead', instrument: 'kazoo' }), {
    instanceOf: UnknownInstrumentError,
    message: /"kazoo"/,
  });
  t.throws(() => resolveInstrument({ role: 'drums', instrument: 'piano' }), { instanceOf: UnknownInstrumentError });
});

/**
 * Pitch, octave-folded (an organ's 16' stop or a low string's strong second harmonic can make a pitch tracker
 * jump an octave). Struck sounds whose partials are not harmonic have no single pitch to hold to cents;
 * plucked and pizzicato strings go sharp while they ring loud (tension), as real ones do, so they get more room.
 */
const INHARMONIC = new Set(['timpani', 'glockenspiel', 'tubularBells']);
const CENTS = 10;
const PLUCKED_STRING_CENTS = 30;
/** A palm-muted note is damped within a few cycles: aubio reads its short thump 30–35 cents sharp. */
const MUTED_CENTS = 40;
/**
 * Measured exceptions, left as the bank recorded them: the pizzicato double basses and the acoustic bass read
 * 30–50 cents sharp (aubio at 80–110 Hz); a few read 10–14 cents sharp, within aubio's own error (it reads a
 * pure 392 Hz sine 4 cents sharp).
 */
const LOOSER: Record<string, number> = {
  'contrabass (pizzicato)': 50,
  acousticBass: 40,
  sopranoSax: 15,
  piano: 15,
  brightPiano: 15,
  celesta: 15,
  tuba: 15,
  choir: 15,
  whistle: 15,
};

const variants = Object.entries(SAMPLED_INSTRUMENTS).flatMap(([name, instrument]: [string, SampledInstrument]) => [
  { name, articulation: undefined as Articulation | undefined, instrument },
  ...ARTICULATIONS.filter((way) => instrument.articulations?.[way]).map((way) => ({
    name,
    articulation: way as Articulation | undefined,
    instrument: instrument.articulations![way]!,
  })),
]);

for (const { name, articulation, instrument } of variants) {
  if (INHARMONIC.has(name)) continue;
  const label = articulation ? `${name} (${articulation})` : name;
  test(`${label} sounds at the pitch asked (aubio, within ${CENTS} cents)`, async (t) => {
    const midis = [instrument.centre + 2, instrument.centre + 7];
    const signal = await dry(
      name,
      midis.map((midi, i) => note(0.05 + i * 1.5, 1.2, midi, 0.9, articulation)),
    );
    const track = await aubioPitch(await writeMono(t, signal));
    const plucked =
      articulation === 'pizzicato' ||
      articulation === 'muted' ||
      name === 'pizzicatoStrings' ||
      name === 'mutedGuitar' ||
      (instrument.program >= 32 && instrument.program <= 37);
    const muted = articulation === 'muted' || name === 'mutedGuitar';
    const limit = LOOSER[label] ?? (muted ? MUTED_CENTS : plucked ? PLUCKED_STRING_CENTS : CENTS);
    midis.forEach((midi, i) => {
      const from = 0.05 + i * 1.5 + 0.1;
      const heard = track
        .filter((p) => p.time >= from && p.time <= from + 0.5 && p.midi > 0)
        .map((p) => p.midi)
        .sort((a, b) => a - b);
      t.true(heard.length > 5, `${label} ${midi}: aubio heard a pitch`);
      const median = heard[Math.floor(heard.length / 2)]!;
      const folded = (((((median - midi) * 100) % 1200) + 1800) % 1200) - 600;
      t.true(
        Math.abs(folded) <= limit,
        `${label} asked ${midi}, heard ${median.toFixed(2)} (${folded.toFixed(1)} cents)`,
      );
    });
  });
}

for (const name of ['piano', 'guitar', 'strings', 'trumpet', 'altoSax'] as const) {
  test(`${name} gets brighter as it is played harder (spectral centroid)`, async (t) => {
    const centre = SAMPLED_INSTRUMENTS[name].centre;
    const soft = await dry(name, [note(0.05, 1, centre, 0.3)]);
    const hard = await dry(name, [note(0.05, 1, centre, 0.95)]);
    const [quiet, loud] = [spectralCentroidOf(soft, SAMPLE_RATE), spectralCentroidOf(hard, SAMPLE_RATE)];
    t.true(loud > quiet * 1.05, `centroid soft ${quiet.toFixed(0)} Hz, hard ${loud.toFixed(0)} Hz`);
  });
}

test('a drum kit hit harder is brighter too (snare)', async (t) => {
  const soft = await dry('acousticKit', [note(0.05, 0.1, 38, 0.25)], 'drums');
  const hard = await dry('acousticKit', [note(0.05, 0.1, 38, 1)], 'drums');
  t.true(spectralCentroidOf(hard, SAMPLE_RATE) > spectralCentroidOf(soft, SAMPLE_RATE) * 1.05);
});

/**
 * Clicks: the largest jump between neighbouring samples, against the typical jump, over the held part of a
 * note. A loop joined badly shows as a jump many times the typical one.
 */
function worstJump(signal: Float32Array, from: number, to: number): number {
  const jumps: number[] = [];
  for (let i = Math.round(from * SAMPLE_RATE); i < Math.round(to * SAMPLE_RATE); i++)
    jumps.push(Math.abs(signal[i + 1]! - signal[i]!));
  const sorted = [...jumps].sort((a, b) => a - b);
  const typical = sorted[Math.floor(sorted.length * 0.99)]!;
  return sorted[sorted.length - 1]! / typical;
}

const CLICK_RATIO = 3;

test('the click detector finds a one-sample step in a held note', async (t) => {
  const signal = await dry('strings', [note(0.05, 7, 60)]);
  signal[Math.round(4 * SAMPLE_RATE)]! += 0.3 * Math.max(...signal.subarray(3 * SAMPLE_RATE, 5 * SAMPLE_RATE));
  t.true(worstJump(signal, 2, 6.5) > CLICK_RATIO);
});

for (const name of ['strings', 'organ', 'choir', 'flute', 'distGuitar', 'tenorSax'] as const) {
  test(`a held ${name} note sustains through its loop without clicks`, async (t) => {
    const signal = await dry(name, [note(0.05, 7, SAMPLED_INSTRUMENTS[name].centre)]);
    t.true(
      worstJump(signal, 1, 6.5) < CLICK_RATIO,
      `worst jump ${worstJump(signal, 1, 6.5).toFixed(2)}× the 99th percentile`,
    );
    const late = signal.subarray(Math.round(5 * SAMPLE_RATE), Math.round(6.5 * SAMPLE_RATE));
    t.true(Math.max(...late.map(Math.abs)) > 0.01, 'still sounding after 5 s');
  });
}

/** Root-mean-square level in dB of the signal between two times (seconds). */
function levelDb(signal: Float32Array, from: number, to: number): number {
  const part = signal.subarray(Math.round(from * SAMPLE_RATE), Math.round(to * SAMPLE_RATE));
  let sum = 0;
  for (const value of part) sum += value * value;
  return 10 * Math.log10(sum / part.length + 1e-20);
}

// A picked string dies away while it is held, however driven; a blown note holds its level. Held flat, the
// overdriven blues guitar's answers sounded like a fiddle (MTT "violin", MSD "country" first).
for (const [name, least, most] of [
  ['overdriveGuitar', 8, 40],
  ['distGuitar', 4, 40],
  ['tenorSax', -3, 3],
] as const) {
  test(`a held ${name} note's level from its first second to its third falls ${least} to ${most} dB`, async (t) => {
    const signal = await dry(name, [note(0.05, 3.5, SAMPLED_INSTRUMENTS[name].centre)]);
    const fall = levelDb(signal, 0.3, 1) - levelDb(signal, 2.3, 3);
    t.true(fall >= least && fall <= most, `fell ${fall.toFixed(1)} dB`);
  });
}

test('repeated drum hits at one velocity are never identical (round robin)', async (t) => {
  const hits = Array.from({ length: 6 }, (_, i) => note(0.05 + i * 0.5, 0.1, 38, 0.8));
  const signal = await dry('acousticKit', hits, 'drums');
  const slices = hits.map((hit) =>
    signal.slice(Math.round((hit.time + 0.01) * SAMPLE_RATE), Math.round((hit.time + 0.2) * SAMPLE_RATE)),
  );
  for (let i = 1; i < slices.length; i++) {
    let difference = 0;
    for (let j = 0; j < slices[i]!.length; j++) difference += Math.abs(slices[i]![j]! - slices[i - 1]![j]!);
    t.true(difference > 1, `hit ${i} differs from hit ${i - 1}`);
  }
});

test('a sampled part renders the same whatever this thread played before it', async (t) => {
  const part = [note(0.05, 1, 60), note(0.5, 1, 64, 0.4)];
  const first = await dry('nylonGuitar', part);
  await dry('cello', [note(0.05, 2, 50)]);
  const again = await dry('nylonGuitar', part);
  t.deepEqual(again, first);
});

for (const [tonic, pitchClass] of [
  ['E', 4],
  ['Bb', 10],
] as const) {
  test(`the orchestral kit's low tom is a timpani on the key's tonic (${tonic})`, async (t) => {
    const hits = Array.from({ length: 4 }, (_, i) => note(0.05 + i * 0.8, 0.1, 45, 0.9));
    const chroma = chromaOf(await dry('orchestralPerc', hits, 'drums', { tonic, mode: 'major' }), SAMPLE_RATE);
    const strongest = chroma.indexOf(Math.max(...chroma));
    t.is(strongest, pitchClass, `chroma ${chroma.map((v) => v.toFixed(2)).join(' ')}`);
  });
}
