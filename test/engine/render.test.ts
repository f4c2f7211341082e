/**
 * The render stage on hand-made scores: every patch sounds, the length is exact, renders are byte-identical,
 * and the master meets the loudness and true-peak targets as measured by ffmpeg's ebur128 (not our meter).
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PATCHES, type Note, type Part, type Role, type Score, type SongSpec } from '../../engine/types.ts';
import { renderScore, SAMPLE_RATE } from '../../engine/render/index.ts';
import { mixScore } from '../../engine/render/mix.ts';
import { integratedLoudness } from '../../engine/render/master/index.ts';
import { encodeWav } from '../../engine/encode/index.ts';
import { decodeWav, loudness } from '../helpers/analysis.ts';

type Effects = SongSpec['effects'];

function specFor(duration: number, bpm: number, effects: Partial<Effects>): SongSpec {
  return {
    prompt: 'test',
    duration,
    seed: 11,
    genre: 'pop',
    blend: null,
    bpm,
    meter: { beatsPerBar: 4, beatUnit: 4 },
    swing: 0,
    key: { tonic: 'C', mode: 'major' },
    valence: 0,
    arousal: 0,
    density: 0.5,
    form: 'song',
    instruments: [],
    excluded: [],
    effects: { reverb: 0.35, reverbDecay: 2, delay: 0.25, lofi: false, rain: false, brightness: 20000, ...effects },
    vocals: { enabled: false, gender: 'female' },
    lyrics: null,
    title: 'Test',
    trace: [],
    warnings: [],
  };
}

const note = (time: number, duration: number, midi: number, velocity: number): Note => ({
  time,
  duration,
  midi,
  velocity,
  beat: time,
});

/** A pop-ish band: chords on every bar, a bass on beats, a lead in eighths, a backbeat with hats. */
function bandScore(
  duration: number,
  instruments: Partial<Record<Role, string>>,
  effects: Partial<Effects> = {},
  bpm = 110,
): Score {
  const beat = 60 / bpm;
  const bars = Math.floor((duration - 1.5) / (4 * beat));
  const progression = [
    [60, 64, 67],
    [57, 60, 64],
    [53, 57, 60],
    [55, 59, 62],
  ];
  const notes: Record<Role, Note[]> = {
    chords: [],
    pad: [],
    bass: [],
    lead: [],
    arp: [],
    drums: [],
    texture: [],
    vocal: [],
  };
  for (let bar = 0; bar < bars; bar++) {
    const chord = progression[bar % 4]!;
    const t = bar * 4 * beat;
    for (const midi of chord) {
      notes.chords.push(note(t, 3.8 * beat, midi, 0.7));
      notes.pad.push(note(t, 4 * beat, midi - 12, 0.6));
    }
    for (let k = 0; k < 4; k++) notes.bass.push(note(t + k * beat, 0.9 * beat, chord[0]! - 24, 0.8));
    for (let k = 0; k < 8; k++) {
      notes.lead.push(note(t + (k * beat) / 2, 0.45 * beat, 72 + [0, 2, 4, 7, 9, 7, 4, 2][k]!, 0.75));
      notes.arp.push(note(t + (k * beat) / 2, 0.4 * beat, chord[k % 3]! + 12, 0.6));
      notes.drums.push(note(t + (k * beat) / 2, 0.1, k % 2 === 0 ? 42 : 46, 0.6));
    }
    for (const [k, midi] of [
      [0, 36],
      [1, 38],
      [2, 36],
      [3, 38],
    ] as const)
      notes.drums.push(note(t + k * beat, 0.1, midi, 0.9));
  }
  // Every drum of the kit at least once, so every drum sound is exercised.
  [49, 51, 45, 50, 70, 37, 39].forEach((midi, k) => {
    notes.drums.push(note(0.2 + k * 0.15, 0.1, midi, 0.8));
  });
  const parts: Part[] = Object.entries(instruments).map(([role, instrument]) => ({
    role: role as Role,
    instrument,
    notes: role === 'texture' ? [] : notes[role as Role],
    gainDb: 0,
    pan: role === 'lead' ? 0.2 : 0,
  }));
  return {
    spec: specFor(duration, bpm, effects),
    bpm,
    beatsPerBar: 4,
    duration,
    sections: [],
    chords: [],
    parts,
    scale: [0, 2, 4, 5, 7, 9, 11],
    vocal: null,
  };
}

const FULL_BAND = {
  chords: 'rhodes',
  pad: 'warmPad',
  bass: 'fingerBass',
  lead: 'sawLead',
  drums: 'acousticKit',
  texture: 'vinyl',
} as const;

let shared: Promise<{ score: Score; wav: Uint8Array }> | null = null;
/** One 8 s full-band render (lo-fi and rain on) shared by the tests that only inspect its output. */
function sharedRender() {
  shared ??= (async () => {
    const score = bandScore(8.3, FULL_BAND, { lofi: true, rain: true, brightness: 9000 });
    const audio = await renderScore(score);
    return { score, wav: encodeWav(audio.left, audio.right, audio.sampleRate) };
  })();
  return shared;
}

async function measure(t: { teardown(fn: () => Promise<void>): void }, wav: Uint8Array) {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-render-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'out.wav');
  await writeFile(path, wav);
  return loudness(path);
}

function rms(data: Float32Array): number {
  let sum = 0;
  for (const value of data) sum += value * value;
  return Math.sqrt(sum / data.length);
}

for (const patch of PATCHES) {
  test(`patch ${patch} renders finite, audible audio`, async (t) => {
    const role: Role =
      patch.endsWith('Kit') || patch === 'orchestralPerc'
        ? 'drums'
        : ['rain', 'vinyl', 'ocean', 'wind'].includes(patch)
          ? 'texture'
          : patch.endsWith('Bass')
            ? 'bass'
            : 'chords';
    const score = bandScore(4, { [role]: patch }, { reverb: 0, delay: 0 });
    const buses = await mixScore(score, Math.round(score.duration * SAMPLE_RATE));
    for (const channel of [buses.left, buses.right]) {
      t.true(channel.every(Number.isFinite), 'finite samples');
      t.true(rms(channel) > 1e-3, `RMS ${rms(channel)} above the floor`);
    }
  });
}

test('a render has exactly round(duration × 44100) frames', async (t) => {
  const score = bandScore(3.37, { chords: 'piano', bass: 'subBass' });
  const audio = await renderScore(score);
  t.is(audio.left.length, Math.round(3.37 * 44100));
  t.is(audio.right.length, audio.left.length);
  t.is(audio.sampleRate, 44100);
});

test('the same score renders to byte-identical WAVs', async (t) => {
  const { score, wav } = await sharedRender();
  const again = await renderScore(score);
  t.true(Buffer.from(wav).equals(Buffer.from(encodeWav(again.left, again.right, again.sampleRate))));
});

test('the master lands on −14 ±1 LUFS and at most −1 dBTP (ffmpeg ebur128)', async (t) => {
  const { wav } = await sharedRender();
  const measured = await measure(t, wav);
  t.true(Math.abs(measured.integratedLufs + 14) <= 1, `integrated ${measured.integratedLufs} LUFS`);
  t.true(measured.truePeakDbtp <= -1, `true peak ${measured.truePeakDbtp} dBTP`);
});

test("the engine's own BS.1770 meter agrees with ffmpeg ebur128 within 0.3 LU", async (t) => {
  const { wav } = await sharedRender();
  const measured = await measure(t, wav);
  const audio = decodeWav(wav);
  const ours = integratedLoudness(audio.channelData[0]!, audio.channelData[1]!, audio.sampleRate);
  t.true(
    Math.abs(ours - measured.integratedLufs) <= 0.3,
    `ours ${ours.toFixed(2)} vs ffmpeg ${measured.integratedLufs}`,
  );
});

test('a sparse, peaky arrangement (soft solo piano) still meets −14 LUFS and −1 dBTP', async (t) => {
  const score = bandScore(6, { chords: 'piano' }, { reverb: 0.1, delay: 0 }, 70);
  for (const part of score.parts) for (const n of part.notes) n.velocity = 0.35;
  const audio = await renderScore(score);
  const measured = await measure(t, encodeWav(audio.left, audio.right, audio.sampleRate));
  t.true(Math.abs(measured.integratedLufs + 14) <= 1, `integrated ${measured.integratedLufs} LUFS`);
  t.true(measured.truePeakDbtp <= -1, `true peak ${measured.truePeakDbtp} dBTP`);
});

test('the master has no DC offset', async (t) => {
  const { wav } = await sharedRender();
  const audio = decodeWav(wav);
  for (const channel of audio.channelData) {
    const mean = channel.reduce((sum, value) => sum + value, 0) / channel.length;
    t.true(Math.abs(mean) < 1e-3, `mean ${mean}`);
  }
});

test('the first and last 2 ms are near silent, so the file starts and ends without a click', async (t) => {
  const { wav } = await sharedRender();
  const audio = decodeWav(wav);
  const edge = Math.round(0.002 * audio.sampleRate);
  for (const channel of audio.channelData) {
    const head = channel.subarray(0, edge);
    const tail = channel.subarray(channel.length - edge);
    t.true(Math.max(...head.map(Math.abs)) < 0.05, 'head');
    t.true(Math.max(...tail.map(Math.abs)) < 0.05, 'tail');
    t.true(Math.abs(channel[0]!) < 0.001 && Math.abs(channel[channel.length - 1]!) < 0.001, 'end samples at zero');
  }
});

test('progress is reported in order from 0 to 1', async (t) => {
  const fractions: number[] = [];
  await renderScore(bandScore(2, { chords: 'organ', drums: 'chipKit' }), {
    onProgress: (fraction) => fractions.push(fraction),
  });
  t.is(fractions[0], 0);
  t.is(fractions.at(-1), 1);
  t.true(fractions.every((fraction, i) => i === 0 || fraction >= fractions[i - 1]!));
  t.true(fractions.length >= 4);
});

test('an empty score renders silence of the right length without failing', async (t) => {
  const score = bandScore(1.5, {});
  const audio = await renderScore(score);
  t.is(audio.left.length, Math.round(1.5 * 44100));
  t.true(audio.left.every((value) => value === 0));
});
