/**
 * The genres people ask for by name (issue 11, item 2): each typical prompt picks its own preset with that
 * genre's tempo, meter and instruments, the words that used to belong to a neighbour (metal in rock, country in
 * folk) follow them, and the old prompts still pick their old genres.
 */
import test from 'ava';
import { composeWith } from '../../engine/compose/index.ts';
import { interpret } from '../../engine/interpret/index.ts';
import { getPreset, loadPresetFolder } from '../../engine/presets.ts';
import { InvalidPresetError } from '../../engine/errors.ts';
import type { GenerationRequest, SongSpec } from '../../engine/types.ts';
import { specFor } from './compose-fixtures.ts';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const spec = (prompt: string, extra: Partial<GenerationRequest> = {}): SongSpec =>
  interpret({ prompt, duration: 45, style: null, instrumental: false, seed: 42, ...extra });
const patches = (s: SongSpec) => s.instruments.map((i) => i.instrument);
const MINORISH = ['minor', 'dorian', 'harmonicMinor', 'phrygian'];

test('"heavy metal with screaming vocals" is sung metal on distorted guitars, with no organ', (t) => {
  const s = spec('heavy metal with screaming vocals');
  t.is(s.genre, 'metal');
  t.true(s.vocals.enabled);
  t.true(patches(s).includes('distGuitar'));
  t.false(
    patches(s).some((p) => p.endsWith('rgan')),
    patches(s).join(','),
  );
  t.true(MINORISH.includes(s.key.mode), s.key.mode);
});

test('"reggaeton" is reggaeton at 88–100 bpm for any seed', (t) => {
  for (let seed = 0; seed < 10; seed++) {
    const s = spec('reggaeton', { seed });
    t.is(s.genre, 'reggaeton');
    t.true(s.bpm >= 88 && s.bpm <= 100, String(s.bpm));
  }
});

test('the reggaeton groove is the dembow: kick on every beat, snare on the "a" of one and the "and" of two', (t) => {
  const drums = getPreset('reggaeton').drums!;
  t.is(drums.main.kick, '9...9...9...9...');
  t.deepEqual(
    [...drums.main.snare!].flatMap((c, i) => (c === '.' ? [] : [i])),
    [3, 6, 11, 14],
  );
});

test('"afrobeat" and "afrobeats" are afrobeat with horns and guitar, not reggae', (t) => {
  for (const prompt of ['afrobeat', 'afrobeats']) {
    const s = spec(prompt);
    t.is(s.genre, 'afrobeat', prompt);
    t.true(s.bpm >= 100 && s.bpm <= 126, `${prompt}: ${s.bpm}`);
    t.true(patches(s).includes('brass') && patches(s).includes('cleanGuitar'), patches(s).join(','));
  }
});

test('"Kpop girl group" is sung k-pop', (t) => {
  const s = spec('Kpop girl group');
  t.is(s.genre, 'kpop');
  t.true(s.vocals.enabled);
});

test('"12-bar blues shuffle" is swung blues', (t) => {
  const s = spec('12-bar blues shuffle');
  t.is(s.genre, 'blues');
  t.true(s.swing >= 0.5, String(s.swing));
});

test('the blues progressions are twelve bars of seventh chords', (t) => {
  const { progressions, harmonicRhythm } = getPreset('blues');
  t.is(harmonicRhythm, 1);
  for (const progression of [...progressions.major, ...progressions.minor]) {
    t.is(progression.length, 12);
    t.true(
      progression.every((symbol) => symbol.endsWith('7')),
      progression.join(' '),
    );
  }
});

test('"irish jig" is celtic in 6/8 at a jig\'s 90–124 dotted quarters, led by the fiddle', (t) => {
  const s = spec('irish jig');
  t.is(s.genre, 'celtic');
  t.deepEqual(s.meter, { beatsPerBar: 6, beatUnit: 8 });
  t.true(s.bpm / 3 >= 90 && s.bpm / 3 <= 124, String(s.bpm));
  t.true(patches(s).includes('fiddle'));
});

test('"lullaby" is a slow, soft, unsung lullaby in 6/8 on the music box, without drums', (t) => {
  const s = spec('lullaby');
  t.is(s.genre, 'lullaby');
  t.deepEqual(s.meter, { beatsPerBar: 6, beatUnit: 8 });
  t.true(s.bpm / 3 <= 60, `${s.bpm / 3} dotted quarters a minute`);
  t.true(s.arousal <= -0.5, String(s.arousal));
  t.false(s.vocals.enabled);
  t.true(patches(s).includes('musicBox'));
  t.false(s.instruments.some((i) => i.role === 'drums'));
});

test('"tango" is tango with a bandoneon and no drum kit', (t) => {
  const s = spec('tango');
  t.is(s.genre, 'tango');
  t.true(patches(s).includes('bandoneon'));
  t.false(s.instruments.some((i) => i.role === 'drums'));
});

test('tango chords are marcato: struck short on every beat of a full bar', (t) => {
  const preset = getPreset('tango');
  const score = composeWith(specFor(preset, { duration: 30, seed: 5 }), preset);
  const chords = score.parts.find((p) => p.role === 'chords')!;
  const secondsPerBeat = 60 / score.bpm;
  const busiest = score.sections.reduce((a, b) => (b.energy > a.energy ? b : a));
  const bar = busiest.beat + 4;
  const beats = new Set(
    chords.notes.filter((n) => n.beat >= bar && n.beat < bar + 4).map((n) => Math.round(n.beat - bar)),
  );
  t.deepEqual([...beats].sort(), [0, 1, 2, 3]);
  const inBar = chords.notes.filter((n) => n.beat >= bar && n.beat < bar + 4);
  t.true(
    inBar.every((n) => n.duration < 0.6 * secondsPerBeat),
    inBar.map((n) => n.duration.toFixed(2)).join(','),
  );
});

test('"gospel choir with organ" is gospel with a choir and an organ', (t) => {
  const s = spec('gospel choir with organ');
  t.is(s.genre, 'gospel');
  t.true(patches(s).includes('choir'));
  t.true(
    patches(s).some((p) => ['organ', 'rockOrgan', 'churchOrgan'].includes(p)),
    patches(s).join(','),
  );
});

test('"bluegrass banjo" is country with a banjo', (t) => {
  const s = spec('bluegrass banjo');
  t.is(s.genre, 'country');
  t.true(patches(s).includes('banjo'));
});

test('"funk" plays slap bass and a clean guitar over a sixteenth-note hat', (t) => {
  const s = spec('funk');
  t.is(s.genre, 'funk');
  t.true(patches(s).includes('slapBass') && patches(s).includes('cleanGuitar'), patches(s).join(','));
  t.is(getPreset('funk').drums!.main.hat!.replace(/\./g, '').length, 16);
});

test('"a funky groove with slap bass" is funk, not soul; "funky house" stays house', (t) => {
  t.is(spec('a funky groove with slap bass, 108 bpm').genre, 'funk');
  t.is(spec('funky house track').genre, 'house');
});

test('"disco" is four-on-the-floor disco with an octave bass, no longer house', (t) => {
  const s = spec('disco');
  t.is(s.genre, 'disco');
  t.is(getPreset('disco').drums!.main.kick, '9...9...9...9...');
  t.is(getPreset('disco').bass, 'octaves');
});

test('"salsa" keeps the 3-2 son clave on the rim and a piano montuno', (t) => {
  const s = spec('salsa');
  t.is(s.genre, 'salsa');
  t.is(getPreset('salsa').drums!.main.rim, '9..9..9...9.9...');
  t.true(patches(s).includes('piano'));
});

const NAMED: [prompt: string, genre: string][] = [
  ['punk rock', 'punk'],
  ['pop punk song', 'punk'],
  ['samba', 'samba'],
  ['j-pop anime opening', 'jpop'],
  ['epic cinematic trailer', 'cinematic'],
  ['kids song about a dog', 'kids'],
  ['country song about a truck', 'country'],
  ['thrash metal', 'metal'],
  ['celtic', 'celtic'],
];
for (const [prompt, genre] of NAMED) {
  test(`"${prompt}" selects ${genre}`, (t) => {
    t.is(spec(prompt).genre, genre);
  });
}

const OLD: [prompt: string, genre: string][] = [
  ['rock anthem with distorted guitars', 'rock'],
  ['acoustic folk song with banjo and fiddle', 'folk'],
  ['epic orchestral battle theme in D minor', 'orchestral'],
  ['film score for a sad scene', 'orchestral'],
  ['roots reggae one drop', 'reggae'],
  ['deep house', 'house'],
  ['nu disco', 'house'],
  ['smooth jazz', 'jazz'],
  ['grunge', 'rock'],
];
for (const [prompt, genre] of OLD) {
  test(`"${prompt}" still selects ${genre}`, (t) => {
    t.is(spec(prompt).genre, genre);
  });
}

test('a new genre blends like the old ones: "bluesy rock" is blues with rock blended in', (t) => {
  const s = spec('bluesy rock');
  t.is(s.genre, 'blues');
  t.is(s.blend?.genre, 'rock');
});

test('"jazzy hip hop" is still hip hop with jazz blended in', (t) => {
  const s = spec('jazzy hip hop');
  t.is(s.genre, 'hiphop');
  t.is(s.blend?.genre, 'jazz');
});

const SYNTHS = [
  'pluck',
  'bells',
  'fmBell',
  'warmPad',
  'synthPad',
  'sawLead',
  'squareLead',
  'subBass',
  'tr808Bass',
  'acidBass',
  'reeseBass',
  'synthBass',
];

test('the new acoustic styles play sampled instruments and no synth by default', (t) => {
  for (const style of [
    'country',
    'metal',
    'punk',
    'blues',
    'gospel',
    'salsa',
    'samba',
    'tango',
    'afrobeat',
    'celtic',
    'disco',
    'funk',
    'cinematic',
    'lullaby',
    'kids',
  ]) {
    t.deepEqual(
      patches(spec('', { style })).filter((p) => SYNTHS.includes(p)),
      [],
      style,
    );
  }
});

test('a 6/8 preset counts its tempo in eighths: 330 is allowed there and refused in 4/4', async (t) => {
  const celtic = JSON.parse(await readFile(new URL('../../presets/celtic.json', import.meta.url), 'utf8'));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tunesmith-genres-'));
  await writeFile(
    path.join(dir, 'celtic.json'),
    JSON.stringify({ ...celtic, bpm: { min: 240, max: 372, default: 330 } }),
  );
  t.notThrows(() => loadPresetFolder(dir));
  const straight = {
    ...celtic,
    meter: { beatsPerBar: 4, beatUnit: 4 },
    drums: null,
    instruments: { ...celtic.instruments, drums: undefined },
  };
  await writeFile(path.join(dir, 'celtic.json'), JSON.stringify(straight));
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /bpm\.min must be within 40–220/);
});

test('"dance" after a genre names that genre\'s dance, not dance music: no house blended in', (t) => {
  for (const [prompt, genre] of [
    ['a salsa dance in a minor key', 'salsa'],
    ['a tango dance', 'tango'],
    ['swing dance', 'jazz'],
    ['irish dance music', 'celtic'],
    ['ballroom dance', 'waltz'],
    ['a samba dance for carnival', 'samba'],
    ['hip hop dance battle', 'hiphop'],
    ['a line dance tune', 'country'],
  ] as const) {
    const s = spec(prompt);
    t.is(s.genre, genre, prompt);
    t.is(s.blend, null, prompt);
  }
  // On its own, or beside a genre it does not follow, it still asks for dance music.
  t.is(spec('a dance track').genre, 'house');
  t.like(spec('salsa and dance music').blend, { genre: 'house' });
});

test('a music with no style of its own is played by the nearest one, and a warning says so', (t) => {
  for (const [prompt, genre, word] of [
    ['a mariachi band with trumpets', 'salsa', 'mariachi'],
    ['a cumbia for a party', 'salsa', 'cumbia'],
    ['a polka', 'celtic', 'polka'],
    ['a march for a parade', 'orchestral', 'march'],
    ['a marching band at a football game', 'orchestral', 'marching band'],
  ] as const) {
    const s = spec(prompt);
    t.is(s.genre, genre, prompt);
    t.true(
      s.warnings.some((w) => w.startsWith(`"${word}" has no style of its own: `)),
      `${prompt}: ${s.warnings.join(' / ')}`,
    );
  }
  t.deepEqual(spec('a salsa track').warnings, []);
});

test('a sea shanty is Celtic folk and sung; a dinner party is unhurried; a first dance is slow, not dance music', (t) => {
  const shanty = spec('a sea shanty', { instrumental: false });
  t.is(shanty.genre, 'celtic');
  t.true(shanty.vocals.enabled);
  t.false(spec('an instrumental sea shanty', { instrumental: false }).vocals.enabled);
  t.true(spec('smooth saxophone jazz for a dinner party').bpm <= 110);
  const firstDance = spec('wedding first dance song, romantic', { instrumental: false });
  t.not(firstDance.genre, 'house');
  t.is(firstDance.blend?.genre === 'house', false);
});

test('an instrument named beside a solo stays: "electric guitar solo over drums" keeps its drums', (t) => {
  const s = spec('electric guitar solo over drums');
  t.deepEqual(s.instruments.map((c) => c.role).sort(), ['chords', 'drums', 'lead']);
});

test('a duet of named instruments is those instruments alone, unsung; a duet for singers is sung', (t) => {
  const strings = spec('a violin and viola duet', { instrumental: false });
  t.deepEqual(strings.instruments.map((c) => c.instrument).sort(), ['viola', 'violin']);
  t.false(strings.vocals.enabled);
  t.true(spec('a romantic duet for two singers', { instrumental: false }).vocals.enabled);
});

test('a hymn is gospel, sung, with church organ and choir; the highlands are Celtic', (t) => {
  const hymn = spec('an organ hymn in church', { instrumental: false });
  t.is(hymn.genre, 'gospel');
  t.true(hymn.vocals.enabled);
  t.true(hymn.instruments.some((c) => c.instrument === 'churchOrgan'));
  t.is(spec('bagpipes in the highlands').genre, 'celtic');
});

test('occasions are heard: a tribute to a late grandfather is slow and minor, a baby shower gentle, a Christmas carol sung with a choir', (t) => {
  const tribute = spec('a tribute song for my late grandfather', { instrumental: false });
  t.true(tribute.valence < 0 && tribute.bpm <= 80, `valence ${tribute.valence}, ${tribute.bpm} bpm`);
  t.not(
    spec('music for a baby shower').warnings.some((w) => /Nothing in the prompt was recognised/.test(w)),
    true,
  );
  const carol = spec('a christmas carol', { instrumental: false });
  t.true(carol.vocals.enabled);
  t.true(carol.instruments.some((c) => c.instrument === 'choir'));
  t.true(
    spec('a song to propose to my girlfriend', { instrumental: false }).bpm <
      spec('a song for my girlfriend', { instrumental: false }).bpm,
  );
});

test('jangly guitars are clean guitars; a string piece is strings; Vivaldi and Mozart are orchestral', (t) => {
  t.true(
    spec('an indie rock song with jangly guitars').instruments.some(
      (c) => c.role === 'chords' && c.instrument === 'cleanGuitar',
    ),
  );
  t.true(spec('a classical string piece').instruments.some((c) => c.instrument === 'strings'));
  t.is(spec('in the style of Vivaldi').genre, 'orchestral');
  t.is(spec('something like mozart').genre, 'orchestral');
});

test('bossa nova has a style of its own: a straight cross-stick clave, root-fifth bass, nylon guitar, no longer jazz', (t) => {
  const bossa = getPreset('bossanova');
  t.is(bossa.swing, 0);
  t.is(bossa.drums?.main.rim, '8..8..8...8..8..');
  t.is(bossa.bass, 'rootFifth');
  t.is(bossa.instruments.chords, 'nylonGuitar');
  t.false(getPreset('jazz').aliases.includes('bossa nova'));
  for (const prompt of ['bossa nova', 'a bossa', 'Jobim-style bossanova'])
    t.is(spec(prompt).genre, 'bossanova', prompt);
});

test('choral music is a choir with no drums in a reverberant room; "a cappella" alone asks for it', (t) => {
  const choral = getPreset('choral');
  t.is(choral.drums, null);
  t.deepEqual(Object.values(choral.instruments), ['choir']);
  t.true(choral.effects.reverb >= 0.4);
  t.is(spec('a cappella').genre, 'choral');
  // A genre stated beside it wins: a cappella pop is pop, sung by voices alone.
  t.is(spec('a cappella pop').genre, 'pop');
});

test('raga and maqam play in their own scales: the thaats as church modes, Kurd and Nahawand', (t) => {
  t.deepEqual([...getPreset('raga').modes].sort(), ['dorian', 'lydian', 'major', 'minor', 'mixolydian', 'phrygian']);
  t.deepEqual(getPreset('maqam').modes, ['phrygian', 'harmonicMinor', 'minor']);
  for (const seed of [1, 2, 3, 4, 5]) {
    t.true(['phrygian', 'harmonicMinor', 'minor'].includes(spec('arabic music', { seed }).key.mode));
  }
  t.is(spec('indian classical music').genre, 'raga');
  t.is(spec('belly dance').genre, 'maqam');
});

test('a slow pop song and a slow rock song can be ballads: the styles reach down to ballad tempos', (t) => {
  t.true(getPreset('pop').bpm.min <= 70);
  t.true(getPreset('rock').bpm.min <= 75);
  t.true(spec('a slow pop ballad').bpm <= 80);
});
