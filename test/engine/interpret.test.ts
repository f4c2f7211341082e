import test from 'ava';
import { interpret } from '../../engine/interpret/index.ts';
import { UnknownStyleError } from '../../engine/errors.ts';
import { getPreset, presetNames } from '../../engine/presets.ts';
import { PATCHES, type GenerationRequest, type SongSpec } from '../../engine/types.ts';

const request = (prompt: string, extra: Partial<GenerationRequest> = {}): GenerationRequest => ({
  prompt,
  duration: 45,
  style: null,
  instrumental: false,
  seed: 42,
  ...extra,
});
const spec = (prompt: string, extra: Partial<GenerationRequest> = {}): SongSpec => interpret(request(prompt, extra));
const roles = (s: SongSpec) => s.instruments.map((i) => i.role);
const patches = (s: SongSpec) => s.instruments.map((i) => i.instrument);
const MINORISH = ['minor', 'dorian', 'harmonicMinor', 'phrygian'];

test('the lo-fi brief example gives lofi at 80 bpm, minor-ish, with piano and rain', (t) => {
  const s = spec('melancholic lo-fi hip hop with rainy piano, 80 bpm');
  t.is(s.genre, 'lofi');
  t.is(s.bpm, 80);
  t.true(MINORISH.includes(s.key.mode), s.key.mode);
  t.true(patches(s).includes('piano'));
  t.true(s.effects.rain);
  t.true(s.effects.lofi);
});

test('the battle brief example gives orchestral in D minor, fast and unsung', (t) => {
  const s = spec('epic orchestral battle theme in D minor');
  t.is(s.genre, 'orchestral');
  t.deepEqual(s.key, { tonic: 'D', mode: 'minor' });
  t.true(s.bpm >= 120, String(s.bpm));
  t.false(s.vocals.enabled);
});

test('sad and slow is slower, lower in valence and minor; happy and upbeat is faster and major', (t) => {
  const sad = spec('sad slow pop');
  const happy = spec('happy upbeat pop');
  t.true(sad.bpm < happy.bpm, `${sad.bpm} vs ${happy.bpm}`);
  t.true(sad.valence < happy.valence);
  t.true(sad.arousal < happy.arousal);
  t.true(MINORISH.includes(sad.key.mode), sad.key.mode);
  t.is(happy.key.mode, 'major');
});

test('"slow" and "fast" move the tempo within the same genre', (t) => {
  const slow = spec('slow house').bpm;
  const plain = spec('house').bpm;
  const fast = spec('fast house').bpm;
  t.true(slow < plain && plain < fast, `${slow} ${plain} ${fast}`);
  const house = getPreset('house');
  t.true(slow >= house.bpm.min && fast <= house.bpm.max);
});

test('without an explicit bpm every style stays inside its own range, however extreme the mood', (t) => {
  for (const name of presetNames()) {
    const { min, max } = getPreset(name).bpm;
    for (const mood of ['', 'extremely calm sleepy slow', 'extremely frantic fast aggressive']) {
      const bpm = spec(mood, { style: name }).bpm;
      t.true(bpm >= min && bpm <= max, `${name} "${mood}": ${bpm}`);
    }
  }
});

test('negation flips a mood word: "not happy" is sadder than no mood at all', (t) => {
  t.true(spec('not happy', { style: 'pop' }).valence < spec('', { style: 'pop' }).valence);
});

test('"no longer sad" is happier than no mood at all', (t) => {
  t.true(spec('no longer sad', { style: 'pop' }).valence > spec('', { style: 'pop' }).valence);
});

test('"never calm" is more aroused than no mood at all', (t) => {
  t.true(spec('never calm', { style: 'pop' }).arousal > spec('', { style: 'pop' }).arousal);
});

test('negation stops at a comma: "not fast, sad" is still sad', (t) => {
  t.true(spec('not fast, sad', { style: 'jazz' }).valence < spec('', { style: 'jazz' }).valence);
});

test('intensifiers order the same mood word: very sad < sad < slightly sad', (t) => {
  const v = (p: string) => spec(p, { style: 'jazz' }).valence;
  t.true(v('very sad') < v('sad'));
  t.true(v('sad') < v('slightly sad'));
});

test('valence and arousal stay within [-1, 1] however many words push them', (t) => {
  const s = spec('extremely happy euphoric ecstatic joyful very upbeat super energetic hype wild party');
  t.is(s.valence, 1);
  t.is(s.arousal, 1);
  const d = spec('extremely sad depressed mournful hopeless sleepy very calm');
  t.is(d.valence, -1);
  t.is(d.arousal, -1);
});

for (const phrase of ['no drums', 'without drums', 'drumless', 'no percussion']) {
  test(`"${phrase}" removes the drums role`, (t) => {
    const s = spec(`rock ${phrase}`);
    t.true(s.excluded.includes('drums'));
    t.false(roles(s).includes('drums'));
  });
}

test('"no bass" removes the bass role', (t) => {
  const s = spec('house with no bass');
  t.true(s.excluded.includes('bass'));
  t.false(roles(s).includes('bass'));
});

test('"without piano" removes whichever roles play piano', (t) => {
  const s = spec('pop without piano');
  t.false(patches(s).includes('piano'));
  t.true(s.excluded.includes('chords'));
});

for (const phrase of ['solo piano', 'piano only', 'just piano']) {
  test(`"${phrase}" leaves only piano on chords and lead`, (t) => {
    const s = spec(`sad ${phrase}`);
    t.deepEqual(s.instruments, [
      { role: 'chords', instrument: 'piano' },
      { role: 'lead', instrument: 'piano' },
    ]);
    for (const role of ['drums', 'bass', 'pad', 'arp', 'texture'] as const) t.true(s.excluded.includes(role), role);
  });
}

test('excluded roles are never in the instruments, across many prompts', (t) => {
  for (const p of [
    'lofi no drums',
    'solo guitar',
    'orchestral without brass',
    'techno no bass no drums',
    'jazz piano only',
    'instrumental pop',
  ]) {
    const s = spec(p);
    for (const role of s.excluded) t.false(roles(s).includes(role), `${p}: ${role}`);
  }
});

test('every instrument chosen is a known patch and no role appears twice', (t) => {
  for (const p of [
    'lofi',
    'jazzy house with saxophone',
    'rainy piano',
    'epic choir and taiko',
    'neon synth arpeggios',
    '',
  ]) {
    const s = spec(p);
    for (const i of s.instruments) t.true((PATCHES as readonly string[]).includes(i.instrument), i.instrument);
    t.is(new Set(roles(s)).size, s.instruments.length);
  }
});

test('an instrument word adds its patch to a style that lacks it', (t) => {
  t.false(patches(spec('', { style: 'techno' })).includes('strings'));
  t.true(patches(spec('strings', { style: 'techno' })).includes('strings'));
});

test('saxophone is played by the sampled tenor sax, with no stand-in note in the trace', (t) => {
  const s = spec('smooth saxophone', { style: 'lofi' });
  t.true(patches(s).includes('tenorSax'));
  t.true(s.trace.some((e) => e.source === 'saxophone' && e.effect === 'lead = tenorSax'));
});

test('"no vocals" turns vocals off in a sung style', (t) => {
  const s = spec('pop song, no vocals');
  t.false(s.vocals.enabled);
  t.true(s.excluded.includes('vocal'));
});

test('request.instrumental turns vocals off even when the prompt asks for a song', (t) => {
  t.false(spec('a love song with female vocals', { instrumental: true }).vocals.enabled);
});

test('lyrics turn vocals on even in an instrumental style', (t) => {
  t.true(spec('', { style: 'techno', lyrics: 'la la la' }).vocals.enabled);
});

test('a sung style is sung by default', (t) => {
  t.true(spec('rock').vocals.enabled);
});

test('a sung style described as a beat or background stays instrumental', (t) => {
  t.false(spec('rock beat').vocals.enabled);
  t.false(spec('folk background music').vocals.enabled);
  t.false(spec('jazz to study to').vocals.enabled);
});

test('an instrumental style is unsung unless a song is asked for', (t) => {
  t.false(spec('ambient soundscape').vocals.enabled);
  t.false(spec('techno').vocals.enabled);
  t.true(spec('techno song with vocals').vocals.enabled);
});

test('"a song about X" asks for a singer and titles the track X', (t) => {
  const s = spec('a song about summer love');
  t.true(s.vocals.enabled);
  t.is(s.title, 'Summer Love');
});

test('gender words choose the voice', (t) => {
  t.is(spec('pop song with female vocals').vocals.gender, 'female');
  t.is(spec('rock song, male singer').vocals.gender, 'male');
  t.is(spec('a girl singing about rain').vocals.gender, 'female');
});

test('without gender words both voices occur across seeds', (t) => {
  const genders = new Set(Array.from({ length: 30 }, (_, seed) => spec('pop song', { seed }).vocals.gender));
  t.deepEqual([...genders].sort(), ['female', 'male']);
});

test('the vocals decision is traced with its reason', (t) => {
  t.true(spec('rock beat').trace.some((e) => e.source === 'beat' && /vocals off/.test(e.effect)));
});

test('style sets the genre outright and is traced as the style preset', (t) => {
  const s = spec('hard techno rave', { style: 'jazz' });
  t.is(s.genre, 'jazz');
  t.is(s.blend, null);
  t.true(s.trace.some((e) => e.source === 'style' && e.effect === 'genre = jazz (style preset)'));
});

test('with a style, prompt words still refine mood, tempo and key', (t) => {
  const plain = spec('', { style: 'lofi' });
  const refined = spec('sad slow in C minor', { style: 'lofi' });
  t.true(refined.valence < plain.valence);
  t.true(refined.bpm <= plain.bpm);
  t.deepEqual(refined.key, { tonic: 'C', mode: 'minor' });
});

test('an unknown style throws UnknownStyleError naming the allowed styles', (t) => {
  const error = t.throws(() => spec('x', { style: 'polka' }), { instanceOf: UnknownStyleError });
  t.true(error!.allowed.includes('lofi'));
});

test('two genre words blend the second in at its relative weight', (t) => {
  const s = spec('jazzy house');
  t.is(s.genre, 'house');
  t.is(s.blend?.genre, 'jazz');
  t.true(s.blend!.weight > 0 && s.blend!.weight < 0.5, String(s.blend!.weight));
});

test('a second genre far weaker than the first does not blend', (t) => {
  const s = spec('rave techno with a jazzy touch');
  t.is(s.genre, 'techno');
  t.is(s.blend, null);
});

test('two words for the same genre do not blend', (t) => {
  t.is(spec('lofi chillhop').blend, null);
});

test('a blended genre lends its harmony instruments', (t) => {
  const s = spec('jazzy house');
  t.true(patches(s).includes('tenorSax'));
  t.true(patches(s).includes('electronicKit'));
});

test('scene words pick the genre when none is named', (t) => {
  t.is(spec('battle').genre, 'orchestral');
  t.is(spec('neon lights').genre, 'synthwave');
  t.is(spec('lost in space').genre, 'ambient');
  t.is(spec('sad piano').genre, 'piano');
  t.is(spec('car chase').genre, 'dnb');
});

test('mood words alone fall back to pop, or ambient when very calm', (t) => {
  t.is(spec('happy').genre, 'pop');
  t.is(spec('very calm and peaceful').genre, 'ambient');
});

for (const prompt of ['', '   ', 'asdf qwer', '!!!', '12345']) {
  test(`the unrecognisable prompt ${JSON.stringify(prompt)} still gives a sensible spec`, (t) => {
    const s = spec(prompt);
    t.true(['pop', 'ambient'].includes(s.genre));
    t.true(s.trace.some((e) => e.effect.includes('no recognised words: defaults')));
    t.true(s.title.length > 0);
    t.true(s.instruments.length > 0);
    const { min, max } = getPreset(s.genre).bpm;
    t.true(s.bpm >= min && s.bpm <= max);
  });
}

test('an empty prompt picks pop or ambient by seed, and both occur', (t) => {
  const genres = new Set(Array.from({ length: 20 }, (_, seed) => spec('', { seed }).genre));
  t.deepEqual([...genres].sort(), ['ambient', 'pop']);
});

test('the same request gives a deep-equal spec', (t) => {
  const r = request('melancholic lo-fi hip hop with rainy piano', { seed: 1234 });
  t.deepEqual(interpret(r), interpret({ ...r }));
});

test('different seeds vary the key when it is not explicit', (t) => {
  const keys = new Set(Array.from({ length: 20 }, (_, seed) => spec('house', { seed }).key.tonic));
  t.true(keys.size > 3, [...keys].join(','));
});

test('an explicit key holds across seeds', (t) => {
  const keys = new Set(Array.from({ length: 10 }, (_, seed) => `${spec('house in G minor', { seed }).key.tonic}`));
  t.deepEqual([...keys], ['G']);
});

test('duration and seed are copied from the request, form from the preset', (t) => {
  const s = spec('lofi', { duration: 123, seed: 77 });
  t.is(s.duration, 123);
  t.is(s.seed, 77);
  t.is(s.form, getPreset('lofi').form);
  t.is(s.prompt, 'lofi');
});

test('the trace explains explicit bpm, mood words and the style', (t) => {
  const s = spec('melancholic, 80 bpm', { style: 'lofi' });
  t.true(s.trace.some((e) => e.source === '80 bpm' && e.effect === 'bpm = 80 (explicit)'));
  t.true(s.trace.some((e) => e.source === 'melancholic' && e.effect === 'valence -0.6, arousal -0.3'));
  t.true(s.trace.some((e) => e.source === 'style' && e.effect === 'genre = lofi (style preset)'));
});

test('the trace covers every decided value', (t) => {
  const effects = spec('dreamy synthwave')
    .trace.map((e) => e.effect)
    .join('\n');
  for (const what of [
    'genre =',
    'bpm =',
    'meter =',
    'swing =',
    'key =',
    'mode =',
    'valence =',
    'density =',
    'reverb =',
    'lo-fi treatment',
    'rain',
    'brightness =',
    'vocals',
    'instruments:',
    'title =',
    'form =',
  ]) {
    t.true(effects.includes(what), what);
  }
});

test('the title is built from the strongest words in Title Case', (t) => {
  t.regex(spec('melancholic lo-fi hip hop with rainy piano, 80 bpm').title, /^Rainy Piano \w+$/);
  t.is(spec('neon night drive').title, 'Neon Night Drive');
});

test('titles are never empty and at most 60 characters', (t) => {
  const long = `a song about ${'extraordinarily '.repeat(20)}long journeys`;
  for (const p of [long, '', 'x', 'sad', 'battle']) {
    const title = spec(p).title;
    t.true(title.length > 0 && title.length <= 60, title);
    t.regex(title, /^[A-Z0-9]/);
  }
});

test('spacious words give more reverb than the same style without them', (t) => {
  t.true(spec('spacious cathedral pop').effects.reverb > spec('pop').effects.reverb);
});

test('calmer prompts get more reverb and a darker master than energetic ones', (t) => {
  const calm = spec('very calm', { style: 'pop' });
  const wild = spec('very energetic', { style: 'pop' });
  t.true(calm.effects.reverb > wild.effects.reverb);
  t.true(calm.effects.brightness < wild.effects.brightness);
  t.true(calm.density < wild.density);
});

test('vinyl words switch on the lo-fi treatment outside lofi', (t) => {
  t.false(spec('jazz').effects.lofi);
  t.true(spec('dusty vinyl jazz').effects.lofi);
});

test('ambient has no drums by default', (t) => {
  t.false(roles(spec('ambient')).includes('drums'));
});

test('dreamy prompts in a bright valence band take the lydian mode', (t) => {
  t.is(spec('dreamy', { style: 'pop' }).key.mode, 'lydian');
});

test('dark epic prompts take harmonic minor when the genre prefers it', (t) => {
  t.is(spec('dark orchestral').key.mode, 'harmonicMinor');
});

test('"just piano and cello" keeps both named instruments and nothing else', (t) => {
  const s = spec('just piano and cello');
  t.deepEqual(patches(s).sort(), ['cello', 'piano']);
  t.true(s.excluded.includes('drums'));
});

test('"piano and strings only" marks both instruments as the only ones', (t) => {
  const s = spec('piano and strings only');
  t.true(patches(s).includes('piano') && patches(s).includes('strings'));
  t.false(roles(s).includes('drums'));
});

test("an added instrument takes an empty role before replacing the style's own", (t) => {
  const s = spec('lofi with strings');
  t.true(patches(s).includes('strings'));
  t.true(patches(s).includes('rhodes'));
});

test('pace words do not end up in the title', (t) => {
  t.notRegex(spec('very sad slow song').title, /Slow/);
});

test('"solo guitar" in a sung style is instrumental unless a song is asked for', (t) => {
  t.false(spec('solo guitar', { style: 'pop' }).vocals.enabled);
  t.true(spec('solo guitar song with vocals', { style: 'pop' }).vocals.enabled);
});

test('a church mode named without a tonic sets the mode', (t) => {
  t.is(spec('happy lydian pop').key.mode, 'lydian');
  t.is(spec('sad dorian lofi').key.mode, 'dorian');
});

test('when a song is asked for, scene words lean to a sung style', (t) => {
  t.true(getPreset(spec('I want a song for my wedding').genre).vocal);
});

test('a mood adjective leads a title of scene and instrument words', (t) => {
  t.is(spec('sad piano in the rain').title, 'Sad Piano Rain');
});

test('a lo-fi genre word keeps the lo-fi treatment when a style sets another genre', (t) => {
  const s = spec('lo-fi', { style: 'jazz' });
  t.is(s.genre, 'jazz');
  t.true(s.effects.lofi);
});

test('"no vinyl" switches the lo-fi treatment off even in lofi', (t) => {
  const s = spec('lofi, no vinyl');
  t.false(s.effects.lofi);
  t.false(patches(s).includes('vinyl'));
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
const synths = (s: SongSpec) => patches(s).filter((p) => SYNTHS.includes(p));

test('"sad slow piano ballad" is piano, perhaps with strings, and no synth pad or pluck', (t) => {
  const s = spec('sad slow piano ballad');
  t.true(patches(s).includes('piano'));
  t.deepEqual(
    patches(s).filter((p) => p !== 'piano' && p !== 'strings'),
    [],
  );
});

test("the piano ballad's trace says which synths the acoustic arrangement replaced", (t) => {
  const s = spec('sad slow piano ballad');
  t.true(s.trace.some((e) => e.effect === 'lead = piano instead of pluck (an acoustic arrangement)'));
  t.true(s.trace.some((e) => e.effect === 'pad = strings instead of synthPad (an acoustic arrangement)'));
});

test('"rock anthem with distorted guitars" has distorted guitars', (t) => {
  const s = spec('rock anthem with distorted guitars');
  t.is(s.genre, 'rock');
  t.true(patches(s).includes('distGuitar'));
});

test('"gentle bossa nova with nylon guitar" is bossa nova with a nylon-string guitar', (t) => {
  const s = spec('gentle bossa nova with nylon guitar');
  t.is(s.genre, 'bossanova');
  t.true(patches(s).includes('nylonGuitar'));
});

test('"acoustic folk song with banjo and fiddle" has both, and the steel-string guitar keeps strumming', (t) => {
  const s = spec('acoustic folk song with banjo and fiddle');
  t.is(s.genre, 'folk');
  for (const patch of ['banjo', 'fiddle', 'guitar']) t.true(patches(s).includes(patch), patch);
});

test('"smoky jazz trio with upright bass and brushes" has the upright bass, the brush kit and no synth', (t) => {
  const s = spec('smoky jazz trio with upright bass and brushes');
  t.true(s.instruments.some((i) => i.role === 'bass' && i.instrument === 'acousticBass'));
  t.true(s.instruments.some((i) => i.role === 'drums' && i.instrument === 'brushKit'));
  t.deepEqual(synths(s), []);
});

test('"string quartet" is violin, viola and cello, with no drums and no synth pad', (t) => {
  const s = spec('string quartet');
  t.deepEqual(s.instruments, [
    { role: 'bass', instrument: 'cello' },
    { role: 'chords', instrument: 'viola' },
    { role: 'lead', instrument: 'violin' },
  ]);
  t.true(s.excluded.includes('drums'));
});

test('a string quartet named in another genre joins it as strings instead of replacing the band', (t) => {
  const s = spec('pop song with a string quartet');
  t.true(patches(s).includes('strings'));
  t.true(patches(s).includes('electronicKit'));
});

test("a named instrument in an electronic style keeps the style's synths", (t) => {
  const s = spec('synthwave with saxophone');
  t.true(patches(s).includes('tenorSax'));
  t.true(patches(s).includes('synthPad'));
  t.true(patches(s).includes('synthBass'));
});

test('a ballad naming an acoustic instrument drops synths even in an electronic style', (t) => {
  const s = spec('guitar ballad');
  t.is(s.genre, 'pop');
  t.true(patches(s).includes('guitar'));
  t.deepEqual(synths(s), []);
});

test('"unplugged" trades every synth for an acoustic counterpart, whatever the style', (t) => {
  const s = spec('unplugged synthwave');
  t.deepEqual(synths(s), []);
  t.is(s.instruments.find((i) => i.role === 'bass')?.instrument, 'fingerBass');
});

test('a synth the prompt names survives the acoustic arrangement', (t) => {
  const s = spec('folk with banjo and a warm pad');
  t.true(patches(s).includes('banjo'));
  t.true(patches(s).includes('warmPad'));
});

test('a blended electronic genre lends no synths to an acoustic request', (t) => {
  const s = spec('acoustic house');
  t.is(s.blend?.genre, 'house');
  t.deepEqual(synths(s), []);
});

test('with every melodic role excluded, an acoustic style falls back to strings, not a synth pad', (t) => {
  const s = spec('no piano', { style: 'piano' });
  t.deepEqual(s.instruments, [{ role: 'pad', instrument: 'strings' }]);
});

test('with every melodic role excluded, an electronic style still falls back to the warm pad', (t) => {
  const s = spec('techno, no acid bass, no synths, no square lead');
  t.deepEqual(s.instruments, [
    { role: 'drums', instrument: 'electronicKit' },
    { role: 'chords', instrument: 'warmPad' },
  ]);
});

test('"guitar" in rock is satisfied by the style\'s own guitars rather than an acoustic one', (t) => {
  const s = spec('rock with guitar');
  t.false(patches(s).includes('guitar'));
  t.true(patches(s).includes('distGuitar'));
});

test('"no guitars" removes every kind of guitar', (t) => {
  const s = spec('rock without guitars');
  t.false(
    patches(s).some((p) => /Guitar$/.test(p)),
    patches(s).join(','),
  );
});

test('"without timpani" does not take the bass away from an orchestra', (t) => {
  const s = spec('orchestral without timpani');
  t.true(roles(s).includes('bass'));
  t.false(s.excluded.includes('bass'));
});

test("a named bass instrument replaces the style's synth bass", (t) => {
  const s = spec('house with slap bass');
  t.is(s.instruments.find((i) => i.role === 'bass')?.instrument, 'slapBass');
});

test('the acoustic styles play sampled instruments and no synth by default', (t) => {
  for (const style of ['rock', 'folk', 'jazz', 'orchestral', 'waltz', 'piano', 'reggae', 'soul', 'hiphop', 'lofi']) {
    t.deepEqual(synths(spec('', { style })), [], style);
  }
});

test('"bossa nova" is a style of its own, played straight (not swung like jazz), on nylon guitar and brushes', (t) => {
  const s = spec('bossa nova');
  t.is(s.genre, 'bossanova');
  t.true(s.swing < spec('jazz').swing - 0.5, String(s.swing));
  t.true(patches(s).includes('nylonGuitar') && patches(s).includes('brushKit'), patches(s).join(','));
});

test('"acoustic" inside an instrument\'s name asks for that instrument, not an acoustic arrangement of house', (t) => {
  const s = spec('deep house with acoustic guitar');
  t.true(patches(s).includes('guitar'));
  t.true(patches(s).includes('synthBass') && patches(s).includes('warmPad'), patches(s).join(','));
});

test('two named instruments that both like the lead keep both: the one that can only lead takes it', (t) => {
  const s = spec('dark jazz with vibes and muted trumpet');
  t.is(s.instruments.find((i) => i.role === 'lead')?.instrument, 'mutedTrumpet');
  t.true(patches(s).includes('vibraphone'));
});
