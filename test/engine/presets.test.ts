import test from 'ava';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { getPreset, listStyles, loadPresetFolder, presetNames, validatePreset } from '../../engine/presets.ts';
import { InvalidPresetError, UnknownStyleError } from '../../engine/errors.ts';
import { BASS_STYLES, CHORD_STYLES, FORM_KINDS, MODES, PATCHES } from '../../engine/types.ts';
import type { Json } from '../helpers/json.ts';

const presetDir = fileURLToPath(new URL('../../presets/', import.meta.url));

async function pristineLofi(): Promise<Json> {
  return JSON.parse(await readFile(path.join(presetDir, 'lofi.json'), 'utf8'));
}

async function folderWith(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tunesmith-presets-'));
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

test('every preset file in presets/ passes the validator', async (t) => {
  const files = (await readdir(presetDir)).filter((f) => f.endsWith('.json'));
  t.true(files.length >= 12);
  for (const file of files) {
    const raw = JSON.parse(await readFile(path.join(presetDir, file), 'utf8'));
    t.notThrows(() => validatePreset(raw, file, file.replace(/\.json$/, '')), file);
  }
});

test('listStyles gives at least 12 styles sorted by name, each with a name and a description', (t) => {
  const styles = listStyles();
  t.true(styles.length >= 12);
  t.deepEqual(
    styles.map((s) => s.name),
    [...styles.map((s) => s.name)].sort(),
  );
  for (const style of styles) {
    t.true(style.name.length > 0);
    t.true(style.description.trim().length > 10, style.name);
  }
});

test("the brief's core genres all exist as presets", (t) => {
  for (const name of [
    'lofi',
    'hiphop',
    'trap',
    'house',
    'techno',
    'synthwave',
    'orchestral',
    'ambient',
    'pop',
    'rock',
    'dnb',
    'jazz',
    'reggae',
    'chiptune',
  ]) {
    t.is(getPreset(name).name, name);
  }
});

test('getPreset of an unknown name throws UnknownStyleError listing the known names', (t) => {
  const error = t.throws(() => getPreset('nope'), { instanceOf: UnknownStyleError });
  t.deepEqual([...error!.allowed], presetNames());
  t.regex(error!.message, /lofi/);
});

test('presets are frozen so no request can change them for the next one', (t) => {
  const preset = getPreset('pop');
  t.throws(() => {
    (preset.bpm as { min: number }).min = 1;
  });
  t.throws(() => {
    (preset.progressions.major[0] as string[]).push('I');
  });
});

test('every instrument named by a preset is a known patch', (t) => {
  for (const name of presetNames()) {
    for (const patch of Object.values(getPreset(name).instruments))
      t.true((PATCHES as readonly string[]).includes(patch), `${name}: ${patch}`);
  }
});

test('no alias selects two different presets', (t) => {
  const owner = new Map<string, string>();
  for (const name of presetNames()) {
    for (const alias of getPreset(name).aliases) {
      const key = alias.toLowerCase().replace(/[-\s]+/g, ' ');
      t.false(owner.has(key) && owner.get(key) !== name, `"${alias}" is in ${owner.get(key)} and ${name}`);
      owner.set(key, name);
    }
  }
});

test("the validator takes exactly the values of the types' unions (issue 25: one source for both)", async (t) => {
  const lofi = await pristineLofi();
  const fields: [string, readonly string[], (value: string) => Json][] = [
    ['form', FORM_KINDS, (form) => ({ ...lofi, form })],
    ['bass', BASS_STYLES, (bass) => ({ ...lofi, bass })],
    ['chords', CHORD_STYLES, (chords) => ({ ...lofi, chords })],
    ['modes[0]', MODES, (mode) => ({ ...lofi, modes: [mode] })],
  ];
  for (const [field, values, withValue] of fields) {
    for (const value of values) t.notThrows(() => validatePreset(withValue(value), 'lofi.json'), `${field} ${value}`);
    const error = t.throws(() => validatePreset(withValue('polka'), 'lofi.json'), { instanceOf: InvalidPresetError });
    t.true(error.message.includes(`${field} must be one of ${values.join(', ')}`), error.message);
  }
});

test('a drum grid with the wrong number of steps is rejected naming the field', async (t) => {
  const lofi = await pristineLofi();
  lofi.drums.main.kick = '9...';
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.is(error!.file, 'lofi.json');
  t.regex(error!.problem, /drums\.main\.kick must have exactly 16 steps/);
});

test('an instrument that is not a patch is rejected', async (t) => {
  const lofi = await pristineLofi();
  lofi.instruments.lead = 'kazoo';
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /instruments\.lead must be one of/);
});

test('a chord symbol outside the grammar is rejected', async (t) => {
  const lofi = await pristineLofi();
  lofi.progressions.major[0][1] = 'V/V';
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /progressions\.major\[0\]\[1\] is not a chord symbol/);
});

test('a preset whose name differs from its file name is rejected', async (t) => {
  const lofi = await pristineLofi();
  const dir = await folderWith({ 'chill.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /must match the file name "chill"/);
});

test('a default bpm outside its range is rejected', async (t) => {
  const lofi = await pristineLofi();
  lofi.bpm.default = 200;
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /min <= default <= max/);
});

test('an unknown field is rejected rather than silently ignored', async (t) => {
  const lofi = await pristineLofi();
  lofi.tempo = 80;
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /unknown field "tempo"/);
});

test('a file that is not JSON is rejected with the parse problem', async (t) => {
  const dir = await folderWith({ 'lofi.json': '{ "name": ' });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /not valid JSON/);
});

test('drums grooves and a drums instrument must come together', async (t) => {
  const lofi = await pristineLofi();
  delete lofi.instruments.drums;
  const dir = await folderWith({ 'lofi.json': lofi });
  const error = t.throws(() => loadPresetFolder(dir), { instanceOf: InvalidPresetError });
  t.regex(error!.problem, /instruments\.drums must be present exactly when/);
});
