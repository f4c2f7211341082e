/**
 * Prompts in other languages, warnings, pace words and subjects: the behaviours issue 11 added to interpret().
 */
import test from 'ava';
import { interpret } from '../../engine/interpret/index.ts';
import { extractSubjects } from '../../engine/interpret/subjects.ts';
import { fold, translatePrompt } from '../../engine/interpret/translate.ts';
import { getLexicon } from '../../engine/lexicon/index.ts';
import { getPreset, presetNames } from '../../engine/presets.ts';
import type { GenerationRequest, SongSpec } from '../../engine/types.ts';

const lexicon = getLexicon(() => presetNames().map(getPreset));
const spec = (prompt: string, extra: Partial<GenerationRequest> = {}): SongSpec =>
  interpret({ prompt, duration: 60, seed: 1, style: null, instrumental: false, lyrics: null, ...extra });
const language = (s: SongSpec): string => s.trace.find((e) => e.source === 'language')!.effect;
const read = (prompt: string) => translatePrompt(prompt, lexicon.languages, () => []);
/** A spec without the fields that quote the prompt as written. */
const understood = (s: SongSpec): unknown => ({ ...s, prompt: '', trace: [] });

test('folding drops accents and case: "CANCIÓN" and "cancion" meet', (t) => {
  t.is(fold('CANCIÓN'), 'cancion');
  t.is(fold('Straße'), 'strasse');
});

test('accents and case do not change what a Spanish prompt gives', (t) => {
  const expected = understood(spec('canción de cuna suave'));
  for (const prompt of ['CANCIÓN DE CUNA SUAVE', 'cancion de cuna suave', 'Canción De Cuna Suave'])
    t.deepEqual(understood(spec(prompt)), expected, prompt);
});

test('a French prompt is read as French, and the trace shows the English it was read as', (t) => {
  const s = spec('musique douce pour dormir');
  t.true(language(s).startsWith('French (fr)'));
  t.true(s.trace.some((e) => e.source === 'fr' && e.effect === 'read as "music soft to sleep to"'));
});

test('a French sleep prompt is not the default pop track any more', (t) => {
  const s = spec('musique douce pour dormir');
  t.not(s.genre, 'pop');
  t.true(s.bpm < 70);
  t.false(s.vocals.enabled);
});

test('an English prompt is read as English and not rewritten', (t) => {
  const s = spec('sad piano with strings');
  t.is(language(s), 'English');
  t.is(s.englishPrompt, undefined);
});

test('English words that are also foreign words keep an English prompt English ("lo-fi", "etude", "sombre")', (t) => {
  for (const prompt of ['lo-fi', 'etude', 'sombre', 'd&b', 'solo piano'])
    t.is(language(spec(prompt)), 'English', prompt);
});

test('Japanese is recognised by its script and matched without spaces', (t) => {
  const r = read('悲しいピアノの曲');
  t.is(r.language, 'ja');
  t.is(r.text, 'sad piano piece');
});

test('Japanese "ボーカルなし" asks for no vocals', (t) => {
  t.false(spec('ボーカルなしのポップ').vocals.enabled);
});

test('"no vocals" in every language makes a sung style instrumental', (t) => {
  for (const prompt of [
    'pop sin voz',
    'pop sans voix',
    'Pop ohne Gesang',
    'pop sem voz',
    'pop senza voce',
    'ボーカルなしのポップ',
  ]) {
    t.false(spec(prompt).vocals.enabled, prompt);
  }
});

test('"instrumental" in a foreign prompt is honoured too', (t) => {
  t.false(spec('canción pop instrumental').vocals.enabled);
});

test('names and numbers survive translation: "para mi hija María a 90 bpm"', (t) => {
  const r = read('para mi hija María a 90 bpm');
  t.true(r.text.includes('for my daughter María'));
  t.true(r.text.includes('90 bpm'));
});

test('foreign key names become explicit keys: "en la menor" is A minor', (t) => {
  const s = spec('canción triste en la menor');
  t.deepEqual(s.key, { tonic: 'A', mode: 'minor' });
});

test('German compounds are split into known words ("Klaviermusik" -> "piano music")', (t) => {
  t.is(read('Klaviermusik').text, 'piano music');
});

test('German inflected adjectives are read by their stem ("trauriges" -> "sad")', (t) => {
  t.is(read('trauriges Lied').text, 'sad song');
});

test('French elisions next to a rewritten word become spaces ("d\'anniversaire" -> "of birthday")', (t) => {
  t.is(read("chanson d'anniversaire").text, 'song of birthday');
});

test('a Cyrillic prompt is reported as an unsupported language, not passed as a confident default', (t) => {
  const s = spec('Грустная песня');
  t.true(s.warnings.some((w) => w.includes('Cyrillic')));
  t.true(language(s).startsWith('unsupported'));
});

test('a sung foreign prompt says its lyrics are written in English, in the trace and the warnings', (t) => {
  const s = spec('canción alegre de verano');
  t.true(s.vocals.enabled);
  t.true(s.trace.some((e) => e.effect === 'lyrics are written in English (the prompt is in Spanish)'));
  t.true(s.warnings.some((w) => w.startsWith('The lyrics are written in English')));
});

test('a foreign prompt with its own lyrics has no lyrics-language warning', (t) => {
  t.false(
    spec('canción alegre de verano', { lyrics: 'la la la\nsol y mar' }).warnings.some((w) => w.includes('lyrics')),
  );
});

test('an instrumental foreign prompt has no lyrics-language warning', (t) => {
  t.deepEqual(spec('jazz relajante con saxofón').warnings, []);
});

test('gibberish warns that nothing was recognised', (t) => {
  t.true(spec('asdfgh').warnings.some((w) => w.startsWith('Nothing in the prompt was recognised')));
});

test('an emoji-only prompt warns that nothing was recognised', (t) => {
  t.true(spec('🎉🎶✨').warnings.some((w) => w.startsWith('Nothing in the prompt was recognised')));
});

test('an ordinary prompt has no warnings', (t) => {
  t.deepEqual(spec('chill lofi beat with rhodes').warnings, []);
});

test('an instrument the engine cannot play is reported, not silently dropped ("kazoo")', (t) => {
  const s = spec('pop song with kazoo');
  t.true(s.warnings.includes('"kazoo" is not played: the sound bank has no kazoo.'));
  t.true(s.trace.some((e) => e.source === 'kazoo' && e.effect.startsWith('not played')));
});

test('an instrument played by a stand-in names the stand-in ("erhu" by the violin)', (t) => {
  const s = spec('erhu melody');
  t.true(s.warnings.some((w) => w.includes('"erhu" is played by a stand-in') && w.includes('violin')));
});

test('"slow" with "180 bpm" keeps the explicit tempo and warns of the contradiction', (t) => {
  const s = spec('slow techno at 180 bpm');
  t.is(s.bpm, 180);
  t.true(s.warnings.some((w) => w.includes('"slow" contradicts')));
});

test('"fast" with "70 bpm" warns too', (t) => {
  t.true(spec('fast lofi at 70 bpm').warnings.some((w) => w.includes('"fast" contradicts')));
});

test('"slow" beats a fast scene: a slow party is at the low end of its genre', (t) => {
  const s = spec('slow party song');
  const { min, max } = getPreset(s.genre).bpm;
  t.true(s.bpm <= min + (max - min) * 0.3, String(s.bpm));
});

test('"fast" beats a calm scene: a fast lullaby is at the high end of its genre', (t) => {
  const s = spec('fast lullaby');
  const { min, max } = getPreset(s.genre).bpm;
  t.true(s.bpm >= min + (max - min) * 0.7, String(s.bpm));
});

test('"very slow" is slower than "slow"', (t) => {
  t.true(spec('very slow jazz').bpm < spec('slow jazz').bpm);
});

for (const word of ['lament', 'lullaby', 'sleep', 'meditation', 'ballad']) {
  test(`"${word}" is slow and soft: below the genre's default tempo, calm`, (t) => {
    const s = spec(word);
    t.true(s.bpm < getPreset(s.genre).bpm.default, `${s.genre} ${s.bpm}`);
    t.true(s.arousal < 0, String(s.arousal));
  });
}

for (const word of ['battle', 'chase', 'workout', 'party']) {
  test(`"${word}" is fast and driving: above the genre's default tempo, energetic`, (t) => {
    const s = spec(word);
    t.true(s.bpm > getPreset(s.genre).bpm.default, `${s.genre} ${s.bpm}`);
    t.true(s.arousal > 0.5, String(s.arousal));
  });
}

test('"solo cello lament" is the cello alone, slow', (t) => {
  const s = spec('solo cello lament');
  t.deepEqual([...new Set(s.instruments.map((i) => i.instrument))], ['cello']);
  t.true(s.bpm <= 85, String(s.bpm));
});

test('"with X" adds X: a banjo joins a rock band', (t) => {
  t.true(spec('rock with banjo').instruments.some((i) => i.instrument === 'banjo'));
});

const known = (word: string) =>
  lexicon.moods.has(word) || lexicon.scenes.has(word) || lexicon.instruments.has(word) || lexicon.genres.has(word);

test('subjects: "for my daughter Emma" names Emma and the relation', (t) => {
  const s = extractSubjects('happy birthday song for my daughter Emma', known);
  t.deepEqual(s.names, ['Emma']);
  t.is(s.relation, 'my daughter');
  t.is(s.occasion, 'birthday');
});

test('subjects: a lower-case name after a relation is still a name', (t) => {
  t.deepEqual(extractSubjects('song for my son leo', known).names, ['Leo']);
});

test('subjects: an occasion or a lexicon word after "for" is not a name ("for Christmas", "for Studying")', (t) => {
  t.deepEqual(extractSubjects('a song for Christmas', known).names, []);
  t.deepEqual(extractSubjects('music for Studying', known).names, []);
});

test('subjects: "about Lisbon" and "in Paris" are places', (t) => {
  t.deepEqual(extractSubjects('a song about Lisbon', known).places, ['Lisbon']);
  t.deepEqual(extractSubjects('a night in Paris', known).places, ['Paris']);
});

test('subjects: "Emma\'s birthday" names Emma', (t) => {
  t.deepEqual(extractSubjects("Emma's birthday party", known).names, ['Emma']);
});

test('the title names the person and the occasion: "Emma\'s Birthday"', (t) => {
  t.is(spec('happy birthday song for my daughter Emma').title, "Emma's Birthday");
});

test('the title names a person without an occasion: "For Sam"', (t) => {
  t.is(spec('a love song for Sam').title, 'For Sam');
});

test('Han text with a simplified Chinese character is Chinese, not Japanese, even where the Japanese table knows a character', (t) => {
  // 歌 ("song") is in the Japanese table; 乐 (Japanese writes 楽) marks the sentence as Chinese.
  const chinese = read('快乐的生日歌');
  t.is(chinese.language, 'en');
  t.is(chinese.unsupported, 'Han (Chinese)');
  // Han-only Japanese is still read as Japanese, 的 included.
  t.is(read('幻想的音楽').language, 'ja');
});
