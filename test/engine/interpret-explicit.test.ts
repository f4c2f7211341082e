import test from 'ava';
import { extractExplicit, spellTonic } from '../../engine/interpret/explicit.ts';
import { interpret } from '../../engine/interpret/index.ts';

const spec = (prompt: string, seed = 3) => interpret({ prompt, duration: 60, style: null, instrumental: false, seed });

const BPM_CASES: [string, number | null][] = [
  ['92 bpm lofi', 92],
  ['92bpm', 92],
  ['a 120 BPM house track', 120],
  ['tempo 120', 120],
  ['tempo of 96 please', 96],
  ['at 140 beats per minute', 140],
  ['bpm: 100', 100],
  ['house at 128-bpm', 128],
  ['300 bpm gabber', 220],
  ['10 bpm', 40],
  ['5 bpm', null],
  ['20 bpm drone', 40],
  ['two minutes of jazz', null],
  ['a 3 minute song', null],
];
for (const [prompt, bpm] of BPM_CASES) {
  test(`"${prompt}" gives bpm ${bpm ?? 'none'}`, (t) => {
    t.is(extractExplicit(prompt).bpm, bpm);
  });
}

const KEY_CASES: [string, string | null, string | null][] = [
  ['sad song in F# minor', 'F#', 'minor'],
  ['Bb major ballad', 'Bb', 'major'],
  ['key of D', 'D', null],
  ['in the key of Eb', 'Eb', null],
  ['C#m trap beat', 'C#', 'minor'],
  ['A minor', 'A', 'minor'],
  ['in a minor', 'A', 'minor'],
  ['Db major', 'C#', 'major'],
  ['D# minor', 'Eb', 'minor'],
  ['Gb major', 'F#', 'major'],
  ['G# minor', 'Ab', 'minor'],
  ['A# minor', 'Bb', 'minor'],
  ['Cb major', 'B', 'major'],
  ['E# major', 'F', 'major'],
  ['Fb major', 'E', 'major'],
  ['B# minor', 'C', 'minor'],
  ['E flat major', 'Eb', 'major'],
  ['F sharp minor', 'F#', 'minor'],
  ['D dorian groove', 'D', 'dorian'],
  ['G mixolydian', 'G', 'mixolydian'],
  ['E phrygian metal', 'E', 'phrygian'],
  ['A harmonic minor', 'A', 'harmonicMinor'],
  ['lofi in Am', 'A', 'minor'],
  ['something in a minor key', null, 'minor'],
  ['a major key anthem', null, 'major'],
  ['a major hit song', null, null],
  ['am i sad', null, null],
];
for (const [prompt, tonic, mode] of KEY_CASES) {
  test(`"${prompt}" gives key ${tonic ?? '-'} ${mode ?? '-'}`, (t) => {
    const e = extractExplicit(prompt);
    t.is<string | null, string | null>(e.tonic, tonic);
    t.is<string | null, string | null>(e.mode, mode);
  });
}

const METER_CASES: [string, string | null][] = [
  ['folk tune in 3/4', '3/4'],
  ['6/8 ballad', '6/8'],
  ['7/8 prog', '7/8'],
  ['4/4 house', '4/4'],
  ['a slow waltz', '3/4'],
  ['in 11/13', null],
  ['pop song', null],
];
for (const [prompt, meter] of METER_CASES) {
  test(`"${prompt}" gives meter ${meter ?? 'none'}`, (t) => {
    const m = extractExplicit(prompt).meter;
    t.is(m ? `${m.beatsPerBar}/${m.beatUnit}` : null, meter);
  });
}

test('spellTonic maps every sharp and flat spelling onto the PitchClass union', (t) => {
  const expected: Record<string, string> = {
    'C#': 'C#',
    Db: 'C#',
    'D#': 'Eb',
    Eb: 'Eb',
    'F#': 'F#',
    Gb: 'F#',
    'G#': 'Ab',
    Ab: 'Ab',
    'A#': 'Bb',
    Bb: 'Bb',
    Cb: 'B',
    'E#': 'F',
    Fb: 'E',
    'B#': 'C',
  };
  for (const [written, pc] of Object.entries(expected))
    t.is<string, string>(spellTonic(written[0]!, written.slice(1)), pc, written);
});

test('an explicit bpm wins over the genre range', (t) => {
  const s = spec('techno at 90 bpm');
  t.is(s.genre, 'techno');
  t.is(s.bpm, 90);
});

test('an explicit bpm is clamped to 40–220 and the trace says so', (t) => {
  const s = spec('300 bpm');
  t.is(s.bpm, 220);
  t.true(s.trace.some((e) => e.effect === 'bpm = 220 (explicit, clamped from 300)'));
});

test('an explicit key wins over valence: a happy song in A minor stays minor', (t) => {
  const s = spec('very happy joyful song in A minor');
  t.deepEqual(s.key, { tonic: 'A', mode: 'minor' });
});

test('"key of D" fixes the tonic and leaves the mode to valence', (t) => {
  t.deepEqual(spec('sad piano in the key of D').key, { tonic: 'D', mode: 'minor' });
  t.deepEqual(spec('happy pop in the key of D').key, { tonic: 'D', mode: 'major' });
});

test('an explicit meter reaches the spec', (t) => {
  t.deepEqual(spec('folk song in 6/8').meter, { beatsPerBar: 6, beatUnit: 8 });
});

test('"waltz" selects the 3/4 waltz style', (t) => {
  const s = spec('a romantic waltz');
  t.is(s.genre, 'waltz');
  t.deepEqual(s.meter, { beatsPerBar: 3, beatUnit: 4 });
});

test('key words do not leak into the lexicon: "F# minor" adds no mood', (t) => {
  const plain = spec('jazz');
  const keyed = spec('jazz in F# minor');
  t.is(keyed.valence, plain.valence);
  t.is(keyed.arousal, plain.arousal);
});

test('"about" captures the topic up to a clause word', (t) => {
  t.is(extractExplicit('a song about summer love with piano').about, 'summer love');
  t.is(extractExplicit('write about the long road home, slow').about, 'the long road home');
});
