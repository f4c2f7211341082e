/** The encoders: WAV bytes parse back as 16-bit stereo 44.1 kHz PCM, MIDI parses back with tempo and tracks. */
import test from 'ava';
import wavefile from 'wavefile';
import tonejsMidi from '@tonejs/midi';
import type { Part, Score, SongSpec } from '../../engine/types.ts';
import { encodeMidi, encodeWav } from '../../engine/encode/index.ts';

const { Midi } = tonejsMidi;

function sine(frames: number, frequency: number, amplitude: number): Float32Array {
  return Float32Array.from({ length: frames }, (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / 44100));
}

function scoreWith(parts: Part[], bpm = 96, meter = { beatsPerBar: 3, beatUnit: 4 }): Score {
  const spec = { title: 'Encode test', meter, bpm } as unknown as SongSpec;
  return {
    spec,
    bpm,
    beatsPerBar: meter.beatsPerBar,
    duration: 8,
    sections: [],
    chords: [],
    parts,
    scale: [0, 2, 4, 5, 7, 9, 11],
    vocal: null,
  };
}

const PARTS: Part[] = [
  {
    role: 'chords',
    instrument: 'rhodes',
    gainDb: 0,
    pan: 0,
    notes: [
      { time: 0, duration: 1, midi: 60, velocity: 0.7, beat: 0 },
      { time: 0, duration: 1, midi: 64, velocity: 0.7, beat: 0 },
    ],
  },
  {
    role: 'bass',
    instrument: 'fingerBass',
    gainDb: 0,
    pan: 0,
    notes: [{ time: 0.625, duration: 0.5, midi: 36, velocity: 0.9, beat: 1 }],
  },
  {
    role: 'drums',
    instrument: 'acousticKit',
    gainDb: 0,
    pan: 0,
    notes: [
      { time: 0, duration: 0.1, midi: 36, velocity: 1, beat: 0 },
      { time: 0.625, duration: 0.1, midi: 38, velocity: 0.8, beat: 1 },
    ],
  },
];

test('a WAV is 16-bit PCM stereo at 44.1 kHz with every frame present', (t) => {
  const frames = 4410;
  const wav = new wavefile.WaveFile(encodeWav(sine(frames, 440, 0.5), sine(frames, 660, 0.5), 44100));
  const fmt = wav.fmt as { audioFormat: number; numChannels: number; sampleRate: number; bitsPerSample: number };
  t.is(fmt.audioFormat, 1);
  t.is(fmt.numChannels, 2);
  t.is(fmt.sampleRate, 44100);
  t.is(fmt.bitsPerSample, 16);
  t.is((wav.data as { chunkSize: number }).chunkSize, frames * 4);
});

test('WAV samples decode back within rounding of the input, left and right kept apart', (t) => {
  const left = sine(1000, 440, 0.5);
  const right = sine(1000, 220, -0.25);
  const wav = new wavefile.WaveFile(encodeWav(left, right, 44100));
  const [l, r] = wav.getSamples(false, Int16Array) as unknown as [Int16Array, Int16Array];
  for (let i = 0; i < left.length; i++) {
    t.true(Math.abs(l[i]! - left[i]! * 32767) <= 0.5001, `left ${i}`);
    t.true(Math.abs(r[i]! - right[i]! * 32767) <= 0.5001, `right ${i}`);
  }
});

test('WAV samples beyond full scale are clamped, not wrapped', (t) => {
  const wav = new wavefile.WaveFile(encodeWav(new Float32Array([1.5, -1.5]), new Float32Array([2, -2]), 44100));
  const [l, r] = wav.getSamples(false, Int16Array) as unknown as [Int16Array, Int16Array];
  t.deepEqual([...l], [32767, -32768]);
  t.deepEqual([...r], [32767, -32768]);
});

test('the same audio encodes to the same WAV bytes', (t) => {
  const left = sine(2000, 330, 0.3);
  t.deepEqual(encodeWav(left, left, 44100), encodeWav(left, left, 44100));
});

test('MIDI parses back with the tempo, meter and one track per part', (t) => {
  const midi = new Midi(encodeMidi(scoreWith(PARTS)));
  t.is(Math.round(midi.header.tempos[0]!.bpm), 96);
  t.deepEqual(midi.header.timeSignatures[0]!.timeSignature, [3, 4]);
  t.is(midi.tracks.length, PARTS.length);
  t.deepEqual(
    midi.tracks.map((track) => track.notes.length),
    PARTS.map((part) => part.notes.length),
  );
});

test('MIDI drums are on channel 10 with their GM keys; pitched parts get GM programs', (t) => {
  const midi = new Midi(encodeMidi(scoreWith(PARTS)));
  const drums = midi.tracks[2]!;
  t.is(drums.channel, 9);
  t.deepEqual(
    drums.notes.map((n) => n.midi),
    [36, 38],
  );
  t.is(midi.tracks[0]!.instrument.number, 4);
  t.is(midi.tracks[1]!.instrument.number, 33);
  t.not(midi.tracks[0]!.channel, 9);
  t.not(midi.tracks[1]!.channel, midi.tracks[0]!.channel);
});

test('MIDI note times follow the score in seconds', (t) => {
  const midi = new Midi(encodeMidi(scoreWith(PARTS)));
  const bass = midi.tracks[1]!.notes[0]!;
  t.true(Math.abs(bass.time - 0.625) < 0.01);
  t.true(Math.abs(bass.duration - 0.5) < 0.01);
  t.true(Math.abs(bass.velocity - 0.9) < 0.01);
});
