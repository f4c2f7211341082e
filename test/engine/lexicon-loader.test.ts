import test, { type ExecutionContext } from 'ava';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { InvalidLexiconError, loadLexicon } from '../../engine/lexicon/index.ts';
import { getPreset, presetNames } from '../../engine/presets.ts';
import type { Json } from '../helpers/json.ts';

const FILES = ['moods.json', 'scenes.json', 'production.json', 'instruments.json', 'genres.json', 'modifiers.json'];
/** The sentence files: optional, so a folder of the six core files still loads. */
const SENTENCE_FILES = ['statements.json', 'voices.json', 'timbres.json'];
const source = new URL('../../engine/lexicon/', import.meta.url);
const presets = () => presetNames().map(getPreset);

/** A copy of the shipped lexicon with one file edited. */
async function lexiconWith(file: string, edit: (data: Json) => void): Promise<URL> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tunesmith-lexicon-'));
  for (const f of [...FILES, ...SENTENCE_FILES]) await copyFile(new URL(f, source), path.join(dir, f));
  const data = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
  edit(data);
  await writeFile(path.join(dir, file), JSON.stringify(data));
  return pathToFileURL(dir + path.sep);
}

test('the shipped lexicon loads and holds hundreds of entries', (t) => {
  const lexicon = loadLexicon(presets());
  const total =
    lexicon.moods.size + lexicon.scenes.size + lexicon.production.size + lexicon.instruments.size + lexicon.genres.size;
  t.true(lexicon.moods.size >= 200, String(lexicon.moods.size));
  t.true(total >= 500, String(total));
});

test('preset aliases become genre words, normalised like prompts', (t) => {
  const lexicon = loadLexicon(presets());
  t.is(lexicon.genres.get('lo fi')?.genre, 'lofi');
  t.is(lexicon.genres.get('8 bit')?.genre, 'chiptune');
});

test('a phrase in two hint files is rejected, naming both', async (t) => {
  const folder = await lexiconWith('scenes.json', (d) => {
    d.happy = { valence: 0.5, arousal: 0 };
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.is(error!.file, 'scenes.json');
  t.regex(error!.problem, /"happy" is also in moods\.json/);
});

test('a mood without valence and arousal is rejected', async (t) => {
  const folder = await lexiconWith('moods.json', (d) => {
    d.blah = { tempo: 0.2 };
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /"blah" needs a valence and an arousal/);
});

test('a genre vote for a style that does not exist is rejected', async (t) => {
  const folder = await lexiconWith('scenes.json', (d) => {
    d.neon.genres = { vaporpolka: 0.5 };
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /genre "vaporpolka" has no preset/);
});

test('an instrument word naming an unknown patch is rejected', async (t) => {
  const folder = await lexiconWith('instruments.json', (d) => {
    d.piano.patch = 'theremin';
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /patch "theremin" is unknown/);
});

test('an alike list naming an unknown patch is rejected', async (t) => {
  const folder = await lexiconWith('instruments.json', (d) => {
    d.guitar.alike = ['distGuitar', 'theremin'];
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /"guitar": alike must be a list of patches/);
});

test('a valence outside [-1, 1] is rejected', async (t) => {
  const folder = await lexiconWith('moods.json', (d) => {
    d.happy.valence = 3;
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /valence must be a number in -1…1/);
});

test('an unknown hint field is rejected rather than ignored', async (t) => {
  const folder = await lexiconWith('production.json', (d) => {
    d.spacious.loudness = 2;
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error!.problem, /unknown field "loudness"/);
});

/** The problem a lexicon folder is rejected with. */
function problemOf(t: ExecutionContext, folder: URL): string {
  return t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError })?.problem ?? '';
}

test('a folder without the sentence files loads, with empty sentence tables', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tunesmith-lexicon-'));
  for (const f of FILES) await copyFile(new URL(f, source), path.join(dir, f));
  const lexicon = loadLexicon(presets(), pathToFileURL(dir + path.sep));
  t.is(lexicon.statements.phrases.size, 0);
  t.is(lexicon.timbres.adjectives.size, 0);
  t.is(lexicon.voices.qualities.size, 0);
});

test('a tempo phrase with a pace that is not slow, medium or fast is rejected', async (t) => {
  const folder = await lexiconWith('statements.json', (d) => {
    d.tempo.phrases['glacial tempo'] = 'glacial';
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.is(error?.file, 'statements.json');
  t.regex(error?.problem ?? '', /"glacial" is not one of slow, medium, fast/);
});

test('an Italian tempo mark needs a range lowest first', async (t) => {
  const folder = await lexiconWith('statements.json', (d) => {
    d.tempo.marks.largo = [60, 40];
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.regex(error?.problem ?? '', /tempo\.marks "largo" must be \[lowest, highest\]/);
});

test('a voice quality the spec has no name for is rejected', async (t) => {
  const folder = await lexiconWith('voices.json', (d) => {
    d.qualities.nasal = 'nasal';
  });
  const error = t.throws(() => loadLexicon(presets(), folder), { instanceOf: InvalidLexiconError });
  t.is(error?.file, 'voices.json');
  t.regex(error?.problem ?? '', /qualities "nasal": "nasal" is not one of soft, breathy, raspy, powerful/);
});

test('a timbre adjective naming an unknown patch or noun class is rejected', async (t) => {
  const patch = await lexiconWith('timbres.json', (d) => {
    d.adjectives.distorted.guitar = 'fuzzGuitar';
  });
  t.regex(problemOf(t, patch), /"fuzzGuitar" is not a patch/);
  const noun = await lexiconWith('timbres.json', (d) => {
    d.adjectives.distorted.banjo = 'banjo';
  });
  t.regex(problemOf(t, noun), /"banjo" is not a noun class/);
});

test('a genre word with a tempo range the wrong way round is rejected', async (t) => {
  const folder = await lexiconWith('genres.json', (d) => {
    d.tarantella.bpm = { min: 160, max: 120 };
  });
  t.regex(problemOf(t, folder), /"tarantella": bpm must be \{"min", "max"\} with min below max/);
});
