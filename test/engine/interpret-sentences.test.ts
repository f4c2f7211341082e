/**
 * Issue 24, point by point: negation with its scope, "only", sentences about the tempo, evidence weighed, words
 * about the recording, voices however described, timbre words, and the styles and instruments that were missing.
 * Each test names the words and what they must change; the trace must say which words did it.
 */
import test from 'ava';
import { compose } from '../../engine/compose/index.ts';
import { pulseBpm } from '../../engine/compose/meter.ts';
import { interpret } from '../../engine/interpret/index.ts';
import type { GenerationRequest, SongSpec } from '../../engine/types.ts';
import { musicOf } from './description-judge.ts';

const spec = (prompt: string, extra: Partial<GenerationRequest> = {}): SongSpec =>
  interpret({ prompt, duration: 60, style: null, instrumental: false, seed: 7, lyrics: null, ...extra });
const patches = (s: SongSpec) => s.instruments.map((i) => i.instrument);
const roles = (s: SongSpec) => s.instruments.map((i) => i.role);
const traced = (s: SongSpec, source: string) => s.trace.filter((e) => e.source.includes(source)).map((e) => e.effect);
const pulse = (s: SongSpec) => pulseBpm(s.bpm, s.meter);

// 1. Sentences: negation with its scope, "only", and what a sentence is about.

test('a negation carries along a list: "no drums or bass" leaves out both, "no drums, and a deep bass" only the drums', (t) => {
  const both = spec('a calm house track with no drums or bass');
  t.false(roles(both).includes('drums'));
  t.false(roles(both).includes('bass'));
  const one = spec('a calm house track with no drums, and a deep bass');
  t.false(roles(one).includes('drums'));
  t.true(roles(one).includes('bass'));
});

test('a negation after its word takes it back: "Vocals: none", "the saxophone is absent"', (t) => {
  const none = spec('Genre: pop. Vocals: none. Tempo: fast.');
  t.false(none.vocals.enabled);
  t.true(traced(none, 'vocals none').some((e) => e.startsWith('vocals off')));
  const absent = spec('A jazz quartet; the saxophone is absent and a trumpet plays the melody.');
  t.false(patches(absent).includes('tenorSax'), patches(absent).join(','));
  t.is(absent.instruments.find((i) => i.role === 'lead')?.instrument, 'trumpet');
});

test('"there are no voices", "no singer", "without vocals" make a sung style instrumental, and the trace quotes them', (t) => {
  for (const [prompt, words] of [
    ['A pop track. There are no voices.', 'no voices'],
    ['Folk music with no singer.', 'no singer'],
    ['Rock without vocals.', 'without vocals'],
  ] as const) {
    const s = spec(prompt);
    t.false(s.vocals.enabled, prompt);
    t.true(traced(s, words).includes('vocals off (the prompt excludes them)'), `${prompt}: ${JSON.stringify(s.trace)}`);
  }
});

test('"a cappella" and "no instruments" are voices alone: the singer over a choir, nothing else, the trace saying why', (t) => {
  for (const prompt of ['An a cappella gospel song.', 'Acapella pop.', 'A hymn. There are no instruments.']) {
    const s = spec(prompt);
    t.true(s.vocals.enabled, prompt);
    t.deepEqual(patches(s), ['choir'], prompt);
    t.true(s.excluded.includes('drums'), prompt);
  }
  t.true(traced(spec('An a cappella gospel song.'), 'a cappella').includes('vocals on (voices and nothing else)'));
});

test('"a cappella" composes a sung line over the choir and no other part', (t) => {
  const score = compose(spec('Children sing a Christmas song a cappella.', { duration: 30 }));
  t.deepEqual(
    score.parts.map((p) => p.instrument).filter((i) => i !== 'voice'),
    ['choir'],
  );
  t.true((score.vocal?.notes.length ?? 0) > 0);
});

test('"no other instrument" and "no accompaniment" make the instruments named the whole line-up', (t) => {
  const s = spec('A romantic piano piece. No other instrument is heard.');
  t.deepEqual([...new Set(patches(s))], ['piano']);
  t.true(traced(s, 'no other instrument').length > 0);
  const violin = spec('A violin plays a mournful melody. No accompaniment.');
  t.deepEqual([...new Set(patches(violin))], ['violin']);
});

test('"only piano and vocals" and "just a guitar and a voice" keep the singer with the instrument and nothing else', (t) => {
  const piano = spec('A pop song played only on piano and vocals.');
  t.true(piano.vocals.enabled);
  t.deepEqual([...new Set(patches(piano))], ['piano']);
  t.true(piano.trace.some((e) => e.source.includes('only on piano') && e.effect.startsWith('only piano')));
  const guitar = spec('Just a guitar and a voice.');
  t.true(guitar.vocals.enabled);
  t.deepEqual([...new Set(patches(guitar))], ['guitar']);
});

test('"nothing but", "piano alone" and "a duet for piano and cello" are those instruments alone, unsung', (t) => {
  t.deepEqual([...new Set(patches(spec('Nothing but a harp and a flute.')))].sort(), ['flute', 'harp']);
  t.deepEqual([...new Set(patches(spec('Piano alone, quiet and intimate.')))], ['piano']);
  const duet = spec('A slow duet for piano and cello.');
  t.false(duet.vocals.enabled);
  t.deepEqual([...new Set(patches(duet))].sort(), ['cello', 'piano']);
});

test('a tempo sentence sets the tempo: "the tempo is slow" is slow, "medium tempo" the middle, "uptempo" fast', (t) => {
  const slow = spec('An electric guitar instrumental. The tempo is slow.');
  t.true(pulse(slow) <= 85, String(slow.bpm));
  t.true(traced(slow, 'the tempo is slow').some((e) => e.startsWith('bpm = ')));
  const medium = spec('A reggae track at a medium tempo.');
  t.true(pulse(medium) >= 72 && pulse(medium) <= 88, String(medium.bpm));
  t.true(traced(medium, 'medium tempo').some((e) => e.includes('medium')));
  t.true(pulse(spec('Mid-tempo indie rock.')) <= 125);
  t.true(pulse(spec('An uptempo swing number.')) >= 150);
  t.true(pulse(spec('A fast-paced techno track.')) >= 134);
  t.true(pulse(spec('Tempo: slow. Genre: country.')) <= 95);
});

test('slow means slow where the style allows it: a slow pop song is a ballad, a funeral trumpet a dirge', (t) => {
  t.true(pulse(spec('A slow pop song.')) <= 80);
  t.true(pulse(spec('Slow sad trumpet at a funeral.')) <= 72);
  // Where the style cannot go that slow, slow is near its low end and very slow nearer still.
  t.true(spec('very slow jazz').bpm < spec('slow jazz').bpm);
  t.true(spec('slow techno').bpm >= 125);
});

test('an Italian tempo mark sets the tempo to its range: andante walks, presto runs', (t) => {
  const andante = pulse(spec('A piano piece, andante.'));
  t.true(andante >= 76 && andante <= 100, String(andante));
  t.true(pulse(spec('An orchestral piece, presto.')) >= 140);
});

// 2. Evidence, weighed.

test('a genre stated outright beats a setting: metal in a jazz bar is metal with no saxophone', (t) => {
  const metal = spec('Heavy metal played in a jazz bar: crushing distorted guitars.');
  t.is(metal.genre, 'metal');
  t.is(metal.blend, null);
  t.false(patches(metal).includes('tenorSax'));
  t.true(traced(metal, 'jazz bar').some((e) => e.startsWith('a setting')));
  t.is(spec('Reggae for a video game menu.').genre, 'reggae');
  t.is(spec('Video game boss music, played as heavy metal.').genre, 'metal');
  // Alone, a setting still chooses: a jazz bar is jazz.
  t.is(spec('music for a jazz bar').genre, 'jazz');
});

test("a stated genre plays its own instruments in a setting: techno in a church gets no organ, a hymn keeps the church's", (t) => {
  const techno = spec('A techno track played in a church.');
  t.false(patches(techno).includes('churchOrgan'));
  t.true(traced(techno, 'church').some((e) => e.startsWith('a setting')));
  t.true(patches(spec('music for a church')).includes('churchOrgan'));
});

test('an instrument named as the lead leads: "the accordion seems to be the lead", "lead guitar", "piano is the lead"', (t) => {
  const lead = (s: SongSpec) => s.instruments.find((i) => i.role === 'lead')?.instrument;
  t.is(lead(spec('A country/folk song. The accordion seems to be the lead instrument.')), 'accordion');
  t.is(lead(spec('A jazz trio. The piano is the lead instrument.')), 'piano');
  t.is(lead(spec('A soul song with a lead guitar.')), 'cleanGuitar');
  t.is(lead(spec('A trumpet solo over a slow jazz ballad, with a saxophone softly behind it.')), 'trumpet');
  t.true(
    patches(spec('A trumpet solo over a slow jazz ballad, with a saxophone softly behind it.')).includes('tenorSax'),
  );
});

test('words about the recording change nothing in the music, and the trace says they were ignored', (t) => {
  for (const [plain, recorded, word] of [
    [
      'A mellow acoustic guitar melody.',
      'The low quality recording features a mellow acoustic guitar melody.',
      'low quality',
    ],
    [
      'A blues song sung by a man.',
      'Live performance of a blues song sung by a man. The recording is noisy and mono.',
      'noisy',
    ],
    ['A string quartet.', 'A string quartet. The audio quality is poor, with audible tape hiss.', 'tape hiss'],
  ] as const) {
    const s = spec(recorded);
    t.deepEqual(musicOf(s), musicOf(spec(plain)), recorded);
    t.true(traced(s, word).includes('about the recording, not the music: ignored'), recorded);
  }
  // Outside a sentence about the recording, the same sound words still colour the music.
  t.true(spec('lofi beat with tape hiss').effects.lofi);
});

// 3. Voices, however described.

test('voices described, not named as vocals, are sung: a vocalist, a singer, children singing, a choir', (t) => {
  for (const prompt of [
    'A K-pop song with a vocalist that has a gentle voice.',
    'A worship song with a singer that has a raspy tone.',
    'Children singing a cheerful song about animals.',
    'A church choir sings a hymn.',
    'Jazz with a crooner.',
  ]) {
    t.true(spec(prompt).vocals.enabled, prompt);
  }
});

test('a voice quality is put in the spec only where it describes the voice', (t) => {
  t.is(spec('A K-pop song with a vocalist that has a gentle voice.').vocals.quality, 'soft');
  t.is(spec('A worship song with a singer that has a raspy tone.').vocals.quality, 'raspy');
  t.is(spec('A raspy male voice over a slow blues.').vocals.quality, 'raspy');
  t.is(spec('Dream pop with a whispered female vocal.').vocals.quality, 'breathy');
  t.is(spec('Soft drums, a warm bass and a male voice.').vocals.quality, undefined);
});

test("children singing are a child's voice, a song for children is not", (t) => {
  const children = spec('Children sing a Christmas song.');
  t.is(children.vocals.age, 'child');
  t.is(children.vocals.gender, 'female');
  t.is(spec("Vocals: children's choir. Genre: kids.").vocals.age, 'child');
  t.is(spec('A song for children about the sea.').vocals.age, undefined);
});

test('a choir that sings is the singer; a choir answering a soloist is not', (t) => {
  t.true(spec('A church choir sings a hymn.').vocals.choir);
  t.true(spec('Monks chanting in a stone cathedral.').vocals.choir);
  t.is(spec('A soul ballad with a female singer and a gospel choir in the chorus.').vocals.choir, undefined);
});

test('rap is rapped; spoken words are sung instead, and a warning says so', (t) => {
  const rap = spec('A man raps over a boom bap beat.');
  t.true(rap.vocals.enabled);
  t.is(rap.vocals.delivery, 'rapped');
  t.deepEqual(rap.warnings, []);
  const spoken = spec('Spoken word poetry over a soft double bass.');
  t.true(spoken.vocals.enabled);
  t.true(
    spoken.warnings.some((w) => w.includes('spoken word')),
    spoken.warnings.join(' / '),
  );
});

test('humming is a wordless voice playing the melody, not a singer', (t) => {
  const s = spec('A lullaby hummed by a mother, with a soft music box.');
  t.false(s.vocals.enabled);
  t.is(s.instruments.find((i) => i.role === 'lead')?.instrument, 'voiceOohs');
  t.true(patches(s).includes('musicBox'));
  t.true(traced(s, 'hummed').some((e) => e.startsWith('vocals off (hummed')));
});

test('"singing bowls" are an instrument, not a singer', (t) => {
  const s = spec('Meditation music with singing bowls.');
  t.false(s.vocals.enabled);
  t.true(patches(s).includes('tubularBells'));
  t.true(s.warnings.some((w) => w.includes('singing bowls')));
});

test('a description that lists its band and no voice is an instrumental; a short style prompt is still sung', (t) => {
  t.false(spec('Clean electric guitar arpeggios over a muted bass and soft drums.').vocals.enabled);
  t.true(spec('rock').vocals.enabled);
  t.true(spec('A rock song with guitar, bass and drums.').vocals.enabled);
});

// 4. Timbre words.

test('timbre adjectives choose the patch through the words between: distorted, overdriven, clean, e-guitar, e-bass', (t) => {
  const has = (prompt: string, patch: string) =>
    t.true(patches(spec(prompt)).includes(patch), `${prompt}: ${patches(spec(prompt))}`);
  has('A punk song driven by distorted strummed guitar.', 'distGuitar');
  has('Hard rock with a heavy distorted lead guitar.', 'distGuitar');
  has('An instrumental featuring a distorted e-guitar and an e-bass.', 'distGuitar');
  has('A pop song with an e-bass.', 'fingerBass');
  has('Seventies rock with an overdriven organ and a fuzzy bass.', 'rockOrgan');
  has('Mid-tempo indie rock with jangly guitars.', 'cleanGuitar');
  has('A metal track with palm-muted chugging guitars.', 'mutedGuitar');
  has('Analog synth pads and a warm Moog bass.', 'synthBass');
  has('8-bit music with square wave leads.', 'squareLead');
  t.false(patches(spec('Mid-tempo indie rock with jangly guitars.')).includes('distGuitar'));
  // "electric" names a kind of guitar, not a sound: rock's own distorted guitar is one.
  t.true(patches(spec('rock with electric guitar')).includes('distGuitar'));
});

test('a timbre adjective on a noun it has no patch for leaves the mix alone: "a muted bass" is not a muffled track', (t) => {
  t.is(spec('A lofi beat with a muted bass.').effects.brightness, spec('A lofi beat with a bass.').effects.brightness);
});

test('pizzicato and tremolo on a solo string instrument are how it plays, not a string section', (t) => {
  const s = spec('Only a cello and a piano: the cello plays pizzicato.');
  t.deepEqual(s.articulations, { lead: 'pizzicato' });
  t.false(patches(s).includes('pizzicatoStrings'));
  const score = compose({ ...s, duration: 20 });
  const cello = score.parts.find((p) => p.instrument === 'cello');
  t.true((cello?.notes.length ?? 0) > 0);
  t.true(cello?.notes.slice(0, -4).every((n) => n.articulation === 'pizzicato'));
  t.deepEqual(spec('A tremolo violin over a dark piano.').articulations, { lead: 'tremolo' });
  t.true(patches(spec('Pizzicato strings and a bassoon.')).includes('pizzicatoStrings'));
});

test('horns named together all play: the lead takes one, the others take the pad and the fills', (t) => {
  const s = spec('Horns (trumpet, saxophone and trombone) play fills in a soul song sung by a woman.');
  for (const patch of ['trumpet', 'tenorSax', 'trombone']) t.true(patches(s).includes(patch), patches(s).join(','));
});

// 5. Styles and instruments that were missing.

test('bossa nova is a style of its own: straight, nylon guitar and brushes, sung softly', (t) => {
  const s = spec('Bossa nova with a flute.');
  t.is(s.genre, 'bossanova');
  t.is(s.swing, 0);
  for (const patch of ['nylonGuitar', 'brushKit', 'flute']) t.true(patches(s).includes(patch));
});

test('choral and a cappella prompts are choral: a choir, no drums, slow', (t) => {
  const s = spec('Choral music: a mixed choir sings a solemn anthem.');
  t.is(s.genre, 'choral');
  t.true(patches(s).includes('choir'));
  t.false(roles(s).includes('drums'));
  t.is(spec('Gregorian chant').genre, 'choral');
});

test('a raga is Indian-flavoured: a sitar leads over a drone in a thaat scale, the tabla reported as imitated', (t) => {
  const s = spec('A sitar raga over a tanpura drone and tabla.');
  t.is(s.genre, 'raga');
  t.is(s.blend, null);
  t.is(s.instruments.find((i) => i.role === 'lead')?.instrument, 'sitar');
  t.true(['lydian', 'phrygian', 'dorian', 'mixolydian', 'major', 'minor'].includes(s.key.mode));
  t.true(s.warnings.some((w) => w.includes('tabla')));
});

test('Middle-Eastern music is maqam: phrygian or harmonic minor, oud and ney stand-ins, the darbuka reported', (t) => {
  const s = spec('Middle Eastern music with an oud, a darbuka and a ney flute.');
  t.is(s.genre, 'maqam');
  t.true(['phrygian', 'harmonicMinor', 'minor'].includes(s.key.mode), s.key.mode);
  t.true(patches(s).includes('nylonGuitar') && patches(s).includes('flute'));
  for (const word of ['oud', 'darbuka', 'ney'])
    t.true(
      s.warnings.some((w) => w.includes(word)),
      word,
    );
});

test('a tarantella is fast and in 6/8', (t) => {
  const s = spec('A tarantella with accordion and mandolin.');
  t.is(`${s.meter.beatsPerBar}/${s.meter.beatUnit}`, '6/8');
  t.true(pulse(s) >= 126, String(pulse(s)));
  t.true(pulse(spec('A fast tarantella.')) >= 140);
});

test('named instruments are always placed: harpsichord among strings, trumpet among horns', (t) => {
  t.true(patches(spec('A baroque piece for strings and harpsichord.')).includes('harpsichord'));
  const big = spec('An uptempo big band: trumpets, trombones and saxophones over a walking bass.');
  for (const patch of ['trumpet', 'trombone', 'tenorSax']) t.true(patches(big).includes(patch), patches(big).join(','));
  t.false(patches(big).includes('distGuitar'));
});

test('refusing the lead instrument by name leaves the tune to another, not to nobody', (t) => {
  const orchestral = spec('An orchestral piece with no brass and no percussion.');
  t.false(patches(orchestral).includes('frenchHorn'));
  t.is(orchestral.instruments.find((i) => i.role === 'lead')?.instrument, 'violin');
  t.is(spec('jazz without saxophone').instruments.find((i) => i.role === 'lead')?.instrument, 'trumpet');
  // "No lead" itself, and a solo line-up, stay as asked.
  t.false(roles(spec('jazz, solo piano')).includes('drums'));
});

test('free tempo phrasing is read through its templates: "at a leisurely pace", "a brisk tempo"', (t) => {
  t.true(pulse(spec('A rock song. It moves at a leisurely pace.')) <= 85);
  t.true(pulse(spec('A folk tune at a brisk tempo.')) >= 115);
});
