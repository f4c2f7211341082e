/**
 * One test per entry of the sentence word lists (statements.json, voices.json, timbres.json): every phrase does what
 * its data says, so a typo or a phrase shadowed by a longer one shows up as a named failing test.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { pulseBpm } from '../../engine/compose/meter.ts';
import { interpret } from '../../engine/interpret/index.ts';
import { getPreset } from '../../engine/presets.ts';
import type { GenerationRequest, SongSpec } from '../../engine/types.ts';
import { musicOf } from './description-judge.ts';

const read = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../engine/lexicon/${file}`, import.meta.url), 'utf8')) as T;
const statements = read<{
  tempo: {
    subjects: string[];
    values: Record<string, string>;
    templates: string[];
    phrases: Record<string, string>;
    marks: Record<string, [number, number]>;
  };
  lead: { before: string[]; after: string[] };
  exclusive: string[];
  voicesOnly: string[];
  postNegators: string[];
  recording: { phrases: string[]; subjects: string[] };
}>('statements.json');
const voices = read<{
  singing: string[];
  qualities: Record<string, string>;
  children: string[];
  choirs: string[];
  deliveries: Record<string, string>;
  female: string[];
  male: string[];
}>('voices.json');
const timbres = read<{ nouns: Record<string, string[]>; adjectives: Record<string, Record<string, string>> }>(
  'timbres.json',
);

const spec = (prompt: string, style: string | null = null, extra: Partial<GenerationRequest> = {}): SongSpec =>
  interpret({ prompt, duration: 60, style, instrumental: false, seed: 11, ...extra });
const patches = (s: SongSpec): string[] => s.instruments.map((i) => i.instrument);
const lead = (s: SongSpec) => s.instruments.find((i) => i.role === 'lead')?.instrument;

const plainPop = spec('a pop song', 'pop').bpm;
for (const [phrase, pace] of Object.entries(statements.tempo.phrases)) {
  test(`tempo phrase "${phrase}" is ${pace}`, (t) => {
    const { bpm } = spec(`a pop song, ${phrase}`, 'pop');
    if (pace === 'slow') t.true(bpm < plainPop - 10, String(bpm));
    if (pace === 'fast') t.true(bpm > plainPop, String(bpm));
    if (pace === 'medium') t.true(bpm >= 95 && bpm <= 115, String(bpm));
  });
}

for (const [value, pace] of Object.entries(statements.tempo.values)) {
  test(`"the tempo is ${value}" is ${pace}`, (t) => {
    const s = spec(`a pop song. The tempo is ${value}.`, 'pop');
    t.true(s.trace.some((e) => e.source === `the tempo is ${value}` && e.effect.startsWith('bpm = ')));
    if (pace === 'slow') t.true(s.bpm < plainPop - 10, String(s.bpm));
    if (pace === 'fast') t.true(s.bpm > plainPop, String(s.bpm));
  });
}

for (const template of statements.tempo.templates) {
  test(`tempo template "${template}" reads "slow" and "fast"`, (t) => {
    t.true(spec(`a pop song, ${template.replace('{}', 'slow')}`, 'pop').bpm < plainPop - 10);
    t.true(spec(`a pop song, ${template.replace('{}', 'fast')}`, 'pop').bpm > plainPop);
  });
}

for (const subject of statements.tempo.subjects) {
  test(`"${subject} is slow" is a tempo sentence`, (t) => {
    t.true(spec(`a pop song; ${subject} is slow`, 'pop').bpm < plainPop - 10);
  });
}

for (const [mark, [low, high]] of Object.entries(statements.tempo.marks)) {
  test(`the tempo mark "${mark}" plays the middle of ${low}–${high}, as far as the style reaches`, (t) => {
    const s = spec(`an orchestral piece, ${mark}`, 'orchestral');
    const pulse = pulseBpm(s.bpm, s.meter);
    const { min, max } = getPreset('orchestral').bpm;
    t.true(Math.abs(pulse - Math.min(max, Math.max(min, (low + high) / 2))) <= 2.5, String(pulse));
  });
}

for (const cue of statements.lead.before) {
  test(`lead cue "${cue} accordion" makes the accordion lead a rock song`, (t) => {
    t.is(lead(spec(`a rock song with ${cue} accordion`, 'rock')), 'accordion');
  });
}

for (const cue of statements.lead.after) {
  test(`lead cue "accordion ${cue}" makes the accordion lead a rock song`, (t) => {
    t.is(lead(spec(`a rock song where the accordion ${cue}`, 'rock')), 'accordion');
  });
}

for (const phrase of statements.exclusive) {
  test(`"${phrase}" makes the named piano the whole line-up of a pop song`, (t) => {
    t.deepEqual([...new Set(patches(spec(`a pop song on piano. ${phrase}`, 'pop')))], ['piano']);
  });
}

for (const phrase of statements.voicesOnly) {
  test(`"${phrase}" is voices alone, sung`, (t) => {
    const s = spec(`a pop song, ${phrase}`, 'pop');
    t.true(s.vocals.enabled);
    t.deepEqual(patches(s), ['choir']);
  });
}

for (const phrase of statements.postNegators) {
  test(`"vocals ${phrase}" takes the vocals away`, (t) => {
    t.false(spec(`a pop song. Vocals ${phrase}.`, 'pop').vocals.enabled);
  });
}

const folk = spec('a folk song with a male singer', 'folk');
for (const phrase of statements.recording.phrases) {
  test(`recording words "${phrase}" change nothing in the music`, (t) => {
    const s = spec(`a folk song with a male singer. ${phrase}.`, 'folk');
    t.deepEqual(musicOf(s), musicOf(folk));
    t.true(s.trace.some((e) => e.source === phrase && e.effect.startsWith('about the recording')));
  });
}

for (const subject of statements.recording.subjects) {
  test(`a clause about "${subject}" keeps its sound words off the music`, (t) => {
    t.deepEqual(
      musicOf(spec(`a folk song with a male singer. ${subject} is muffled and crackly.`, 'folk')),
      musicOf(folk),
    );
  });
}

for (const phrase of voices.singing) {
  test(`singer word "${phrase}" turns vocals on in an instrumental style`, (t) => {
    t.true(spec(`techno with a ${phrase}`, 'techno').vocals.enabled);
  });
}

for (const [word, quality] of Object.entries(voices.qualities)) {
  test(`"a ${word} voice" is a ${quality} voice`, (t) => {
    t.is(spec(`a pop song with a ${word} voice`, 'pop').vocals.quality, quality as SongSpec['vocals']['quality']);
  });
}

for (const word of voices.children) {
  test(`"${word} singing" is a child's voice, "a song for ${word}" is not`, (t) => {
    t.is(spec(`a pop song with ${word} singing`, 'pop').vocals.age, 'child');
    t.is(spec(`a pop song for ${word}`, 'pop').vocals.age, undefined);
  });
}

for (const word of voices.choirs) {
  test(`"the ${word} sings" is a choir singing`, (t) => {
    t.true(spec(`a hymn where the ${word} sings`, 'gospel').vocals.choir);
  });
}

for (const [phrase, delivery] of Object.entries(voices.deliveries)) {
  test(`"${phrase}" is ${delivery}`, (t) => {
    const s = spec(`a song with ${phrase} over a beat`, 'pop');
    if (delivery === 'hummed') {
      t.false(s.vocals.enabled);
      t.is(lead(s), 'voiceOohs');
      return;
    }
    t.true(s.vocals.enabled);
    t.is(s.vocals.delivery, delivery as SongSpec['vocals']['delivery']);
    // Chanting and rapping are done as asked; the other deliveries are sung instead, and a warning says so.
    const done = delivery === 'chanted' || delivery === 'rapped';
    t.is(
      s.warnings.some((w) => w.includes(`"${phrase}"`)),
      !done,
      s.warnings.join(' / '),
    );
  });
}

for (const [words, gender] of [
  [voices.female, 'female'],
  [voices.male, 'male'],
] as const) {
  for (const word of words) {
    test(`"sung by ${word}" is a ${gender} voice`, (t) => {
      t.is(spec(`a pop song sung by ${word}`, 'pop').vocals.gender, gender);
    });
  }
}

for (const [adjective, byNoun] of Object.entries(timbres.adjectives)) {
  for (const [noun, patch] of Object.entries(byNoun)) {
    if (patch === '=') continue;
    const word = timbres.nouns[noun]?.[0] ?? noun;
    test(`"${adjective} ${word}" plays ${patch}`, (t) => {
      t.true(
        patches(spec(`a song with ${adjective} ${word}`, 'pop')).includes(patch),
        patches(spec(`a song with ${adjective} ${word}`, 'pop')).join(','),
      );
    });
  }
}
