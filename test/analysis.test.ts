/**
 * The audio analysers in test/helpers/analysis.ts, validated on synthetic sox-made signals whose
 * tempo, key, level and hits are known. If these fail, the engine's fidelity tests mean nothing.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import {
  channels,
  decodeWav,
  frames,
  key,
  keyName,
  loudness,
  mirexKeyScore,
  onsets,
  percussiveOnsetRate,
  pitchClassOf,
  sampleRate,
  spectralCentroid,
  stats,
  tempo,
  tempoMatches,
  tempoMatchesOne,
} from './helpers/analysis.ts';
import { DRUMLESS_MAX_PERCUSSIVE_RATE } from './helpers/analysis/thresholds.ts';
import { steadyTempo } from './helpers/analysis/field-fidelity.ts';
import {
  chordLoop,
  drumLoop,
  melody,
  mix,
  noise,
  silence,
  sine,
  synthDir,
  type SynthDir,
} from './helpers/analysis/synth.ts';

let dir: SynthDir;
/** Each signal is made once, on first use, and shared by the tests that need it. */
const made = new Map<string, Promise<string>>();
function signal(name: string, make: (out: string) => Promise<string>): Promise<string> {
  if (!made.has(name)) made.set(name, make(dir.path(`${name}.wav`)));
  return made.get(name)!;
}

test.before(async () => {
  dir = await synthDir();
});
test.after.always(async () => {
  await dir?.cleanup();
});

const drums120 = () => signal('drums120', (out) => drumLoop(out, 120, 60));
const drums90 = () => signal('drums90', (out) => drumLoop(out, 90, 45));
const kick128 = () => signal('kick128', (out) => drumLoop(out, 128, 64, { hats: false }));
const sine1k = () => signal('sine1k', (out) => sine(out, 10, 1000, -20));
const sine1kLoud = () => signal('sine1kLoud', (out) => sine(out, 10, 1000, -14));
const quiet = () => signal('silence', (out) => silence(out, 5));
const whiteNoise = () => signal('noise', (out) => noise(out, 5));
const sawMelody = () =>
  signal('sawMelody', (out) =>
    melody(out, ['C4', 'E4', 'G4', 'C5', 'B4', 'G4', 'D4', 'F4'], 0.125, 20, 'bandLimitedSaw'),
  );
const softMelody = () =>
  signal('softMelody', (out) => melody(out, ['C4', 'E4', 'G4', 'C5', 'B4', 'G4', 'D4', 'F4'], 0.125, 20, 'sine'));
// I–IV–V–I in C; i–iv–V–i in A minor (with the raised leading tone G#, as real minor-key music has it).
const C_MAJOR = [
  ['C3', 'C4', 'E4', 'G4'],
  ['F2', 'F3', 'A3', 'C4'],
  ['G2', 'G3', 'B3', 'D4'],
  ['C3', 'C4', 'E4', 'G4'],
];
const A_MINOR = [
  ['A2', 'A3', 'C4', 'E4'],
  ['D3', 'D4', 'F4', 'A4'],
  ['E3', 'E4', 'G#4', 'B4'],
  ['A2', 'A3', 'C4', 'E4'],
];
const EB_MAJOR = [
  ['Eb3', 'Eb4', 'G4', 'Bb4'],
  ['Ab2', 'Ab3', 'C4', 'Eb4'],
  ['Bb2', 'Bb3', 'D4', 'F4'],
  ['Eb3', 'Eb4', 'G4', 'Bb4'],
];
const FS_MINOR = [
  ['F#2', 'F#3', 'A3', 'C#4'],
  ['B2', 'B3', 'D4', 'F#4'],
  ['C#3', 'C#4', 'F4', 'G#4'],
  ['F#2', 'F#3', 'A3', 'C#4'],
];
const cMajor = () => signal('cMajor', (out) => chordLoop(out, C_MAJOR, 1, 6));
const aMinor = () => signal('aMinor', (out) => chordLoop(out, A_MINOR, 1, 6));
const ebMajor = () => signal('ebMajor', (out) => chordLoop(out, EB_MAJOR, 1, 6));
const fsMinor = () => signal('fsMinor', (out) => chordLoop(out, FS_MINOR, 1, 6));
const chordsWithDrums = () => signal('chordsWithDrums', async (out) => mix(out, [await cMajor(), await drums120()]));

// ---- WAV header ----------------------------------------------------------------------------------

test('frames, sampleRate and channels read the exact sample count from the WAV header', async (t) => {
  const path = await drums120();
  t.is(await frames(path), 30 * 44100);
  t.is(await sampleRate(path), 44100);
  t.is(await channels(path), 2);
});

test('the WAV reader skips unknown chunks and decodes 16-bit PCM samples to [-1, 1)', (t) => {
  const samples = [0, 16384, -32768, 32767];
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => {
    data.writeInt16LE(s, i * 2);
  });
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(2, 2); // stereo
  fmt.writeUInt32LE(44100, 4);
  fmt.writeUInt32LE(44100 * 4, 8);
  fmt.writeUInt16LE(4, 12);
  fmt.writeUInt16LE(16, 14);
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE'),
    chunk('fmt ', fmt),
    chunk('LIST', Buffer.from('odd')),
    chunk('data', data),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  const wav = decodeWav(new Uint8Array(Buffer.concat([riff, body])));
  t.is(wav.frames, 2);
  t.deepEqual([...wav.channelData[0]!], [0, -1]);
  t.deepEqual([...wav.channelData[1]!], [0.5, 32767 / 32768]);
});

test('the WAV reader rejects a file that is not RIFF/WAVE', async (t) => {
  const path = dir.path('not-a-wav.wav');
  await writeFile(path, 'hello, this is text');
  await t.throwsAsync(() => frames(path), { message: /RIFF/ });
});

// ---- loudness and stats --------------------------------------------------------------------------

test('a stereo 1 kHz sine peaking at -20 dBFS measures -20 LUFS and -20 dBTP', async (t) => {
  const l = await loudness(await sine1k());
  t.true(Math.abs(l.integratedLufs - -20) <= 0.3, `I = ${l.integratedLufs}`);
  t.true(Math.abs(l.truePeakDbtp - -20) <= 0.2, `TP = ${l.truePeakDbtp}`);
  t.true(l.lra <= 0.5, `LRA = ${l.lra}`);
});

test('a sine 6 dB hotter measures 6 LU louder', async (t) => {
  const [soft, loud] = await Promise.all([loudness(await sine1k()), loudness(await sine1kLoud())]);
  t.true(
    Math.abs(loud.integratedLufs - soft.integratedLufs - 6) <= 0.3,
    `${soft.integratedLufs} -> ${loud.integratedLufs}`,
  );
});

test('digital silence sits at the meter floor (-70 LUFS)', async (t) => {
  const l = await loudness(await quiet());
  t.is(l.integratedLufs, -70);
});

test('sox stats reports the peak, RMS and DC of a sine', async (t) => {
  const s = await stats(await sine1k());
  t.true(Math.abs(s.peakDb - -20) <= 0.1, `peak ${s.peakDb}`);
  t.true(Math.abs(s.rmsDb - -23.01) <= 0.1, `rms ${s.rmsDb}`);
  t.true(s.dcOffset < 1e-4, `dc ${s.dcOffset}`);
});

test('sox stats reports silence as a -Infinity peak', async (t) => {
  const s = await stats(await quiet());
  t.is(s.peakDb, -Infinity);
});

// ---- tempo ---------------------------------------------------------------------------------------

test('tempoMatches accepts the target and its x2, x1/2, x3 and x1/3 within 3%, and nothing else', (t) => {
  for (const estimate of [120, 123.5, 116.5, 240, 60, 360, 40]) t.true(tempoMatchesOne(estimate, 120), `${estimate}`);
  for (const estimate of [125, 115, 180, 80, 100, 150, 90]) t.false(tempoMatchesOne(estimate, 120), `${estimate}`);
  t.false(tempoMatchesOne(null, 120));
  t.true(tempoMatches({ bpmTools: 97, aubio: 60 }, 120), 'one estimator suffices');
  t.false(tempoMatches({ bpmTools: 97, aubio: 100 }, 120));
});

for (const [name, make, bpm, other] of [
  ['120 bpm kick and hat loop', drums120, 120, 90],
  ['90 bpm kick and hat loop', drums90, 90, 120],
  ['128 bpm kick-only loop', kick128, 128, 100],
] as const) {
  test(`the ${name} is measured at ${bpm} bpm (up to octave errors) and not at ${other}`, async (t) => {
    const est = await tempo(await make());
    t.log(`bpm-tools ${est.bpmTools?.toFixed(2)}, aubiotrack ${est.aubio?.toFixed(2)}`);
    t.true(tempoMatches(est, bpm), JSON.stringify({ bpmTools: est.bpmTools, aubio: est.aubio }));
    t.false(tempoMatches(est, other));
  });
}

test('bpm-tools reads the 120 bpm loop exactly (within 1%), with no octave error', async (t) => {
  const est = await tempo(await drums120());
  t.true(est.bpmTools !== null && Math.abs(est.bpmTools - 120) <= 1.2, `${est.bpmTools}`);
});

// ---- key -----------------------------------------------------------------------------------------

test('pitchClassOf reads sharps and flats', (t) => {
  t.deepEqual(['C', 'C#', 'Db', 'Eb', 'F#', 'Gb', 'A', 'Bb', 'B'].map(pitchClassOf), [0, 1, 1, 3, 6, 6, 9, 10, 11]);
  t.throws(() => pitchClassOf('H'));
});

test('mirexKeyScore grades correct, fifth, relative, parallel and unrelated keys 1/0.5/0.3/0.2/0', (t) => {
  const cMaj = { tonic: 0, mode: 'major' } as const;
  const aMin = { tonic: 9, mode: 'minor' } as const;
  t.is(mirexKeyScore(cMaj, cMaj), 1);
  t.is(mirexKeyScore({ tonic: 7, mode: 'major' }, cMaj), 0.5);
  t.is(mirexKeyScore({ tonic: 5, mode: 'major' }, cMaj), 0.5);
  t.is(mirexKeyScore({ tonic: 4, mode: 'minor' }, aMin), 0.5);
  t.is(mirexKeyScore(aMin, cMaj), 0.3);
  t.is(mirexKeyScore(cMaj, aMin), 0.3);
  t.is(mirexKeyScore({ tonic: 0, mode: 'minor' }, cMaj), 0.2);
  t.is(mirexKeyScore({ tonic: 9, mode: 'major' }, aMin), 0.2);
  t.is(mirexKeyScore({ tonic: 2, mode: 'major' }, cMaj), 0);
  t.is(mirexKeyScore({ tonic: 7, mode: 'minor' }, cMaj), 0);
});

for (const [name, make, expected] of [
  ['I-IV-V-I in C major', cMajor, 'C major'],
  ['i-iv-V-i in A minor', aMinor, 'A minor'],
  ['I-IV-V-I in Eb major', ebMajor, 'Eb major'],
  ['i-iv-V-i in F# minor', fsMinor, 'F# minor'],
] as const) {
  test(`the ${name} chord loop is detected as ${expected}`, async (t) => {
    const k = await key(await make());
    t.log(`${keyName(k)} r=${k.score.toFixed(3)}, runner-up ${keyName(k.second)} r=${k.second.score.toFixed(3)}`);
    t.is(keyName(k), expected);
  });
}

test('drums over a C major loop do not move the detected key', async (t) => {
  const k = await key(await chordsWithDrums());
  t.is(keyName(k), 'C major');
});

// ---- onsets --------------------------------------------------------------------------------------

test('aubio finds every kick and hat of the 120 bpm loop (2 per beat) and nothing in silence', async (t) => {
  const [loop, none] = await Promise.all([onsets(await drums120()), onsets(await quiet())]);
  t.true(Math.abs(loop.length - 120) <= 4, `${loop.length} onsets`);
  t.is(none.length, 0);
});

test('the percussive onset rate counts the off-beat hats (2/s at 120 bpm) but not the kicks', async (t) => {
  const [withHats, kicksOnly] = await Promise.all([
    percussiveOnsetRate(await drums120()),
    percussiveOnsetRate(await kick128()),
  ]);
  t.true(Math.abs(withHats - 2) <= 0.1, `hats ${withHats}/s`);
  t.true(kicksOnly < 0.1, `kicks ${kicksOnly}/s`);
});

test('a soft pitched melody of 8 notes/s and silence are below the drumless threshold', async (t) => {
  const [melodyRate, silenceRate] = await Promise.all([
    percussiveOnsetRate(await softMelody()),
    percussiveOnsetRate(await quiet()),
  ]);
  t.true(melodyRate < DRUMLESS_MAX_PERCUSSIVE_RATE, `melody ${melodyRate}/s`);
  t.is(silenceRate, 0);
});

test('a bright band-limited sawtooth melody of 8 notes/s is pitched, not percussive: below the drumless threshold', async (t) => {
  const rate = await percussiveOnsetRate(await sawMelody());
  t.true(rate < DRUMLESS_MAX_PERCUSSIVE_RATE, `saw melody ${rate}/s`);
});

test('the sparsest groove (off-beat hats at 90 bpm) is above the drumless threshold', async (t) => {
  const rate = await percussiveOnsetRate(await drums90());
  t.true(rate > DRUMLESS_MAX_PERCUSSIVE_RATE, `${rate}/s`);
});

test('adding drums to a chord loop raises its percussive onset rate', async (t) => {
  const [chords, both] = await Promise.all([
    percussiveOnsetRate(await cMajor()),
    percussiveOnsetRate(await chordsWithDrums()),
  ]);
  t.log(`chords ${chords.toFixed(2)}/s, chords + drums ${both.toFixed(2)}/s`);
  t.true(both > chords + 1.5);
});

// ---- brightness ----------------------------------------------------------------------------------

test('the spectral centroid of a 1 kHz sine is 1 kHz, of white noise about 11 kHz', async (t) => {
  const [tone, hiss] = await Promise.all([spectralCentroid(await sine1k()), spectralCentroid(await whiteNoise())]);
  t.true(Math.abs(tone - 1000) <= 50, `sine ${tone}`);
  t.true(Math.abs(hiss - 11025) <= 500, `noise ${hiss}`);
});

test('the spectral centroid of silence is 0', async (t) => {
  t.is(await spectralCentroid(await quiet()), 0);
});

test("aubio's tempo is read over its longest steady run, keeping the phase corrections of a period a hop short", (t) => {
  // 168 bpm tracked as 0.350 s beats with every fifth interval lengthened to 0.3857 s (10.2% long): a mean of 0.35714 s.
  const beats = [0];
  for (let i = 0; i < 40; i++) beats.push(beats.at(-1)! + (i % 5 === 4 ? 0.3857 : 0.35));
  t.true(Math.abs(steadyTempo(beats)! - 168) < 0.05, `${steadyTempo(beats)}`);
});

test("aubio's tempo reading leaves out the tracker settling at the start and a missed beat", (t) => {
  const settling = [0, 0.33, 0.66, 1.04, 1.56, 2.08];
  const steady = Array.from({ length: 30 }, (_, i) => 3 + i * 0.6);
  const missed = [steady.at(-1)! + 1.2, steady.at(-1)! + 1.8];
  t.true(Math.abs(steadyTempo([...settling, ...steady, ...missed])! - 100) < 0.01);
});
