/**
 * The prompt table (issue 11): prompts people write, in English, Spanish, French, German, Portuguese, Italian and
 * Japanese, with what the engine should understand from each. One test per prompt and expectation, so a
 * regression names the prompt and what it lost. Rows with `pending` expect today's presets; the note says which
 * preset on the genres branch should take the prompt instead (then the row's genre changes).
 */
import test from 'ava';
import { compose } from '../../engine/compose/index.ts';
import { interpret } from '../../engine/interpret/index.ts';
import { lyricsText } from '../../engine/lyrics/index.ts';
import { listStyles } from '../../engine/presets.ts';
import type { Mode, SongSpec } from '../../engine/types.ts';
import { PROMPT_TABLE } from '../helpers/prompt-table.ts';

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  pt: 'Portuguese',
  it: 'Italian',
  ja: 'Japanese',
};
const DARK: readonly Mode[] = ['minor', 'harmonicMinor', 'phrygian', 'dorian'];
const BRIGHT: readonly Mode[] = ['major', 'mixolydian', 'lydian'];

const specs = new Map<string, SongSpec>();
function spec(prompt: string): SongSpec {
  let s = specs.get(prompt);
  if (!s) {
    s = interpret({ prompt, duration: 90, seed: 1, style: null, instrumental: false, lyrics: null });
    specs.set(prompt, s);
  }
  return s;
}
const patches = (s: SongSpec): string[] => s.instruments.map((i) => i.instrument);
const lyricsOf = (s: SongSpec): string | null => {
  const vocal = compose(s).vocal;
  return vocal ? lyricsText(vocal.lyrics) : null;
};

test('the table holds at least 60 prompts, 10 or more in each language', (t) => {
  t.true(PROMPT_TABLE.length >= 60, String(PROMPT_TABLE.length));
  for (const code of Object.keys(LANGUAGE_NAMES))
    t.true(PROMPT_TABLE.filter((r) => r.language === code).length >= 10, code);
});

test('the table expects only genres that have a preset', (t) => {
  const today = listStyles().map((style) => style.name);
  for (const row of PROMPT_TABLE)
    for (const genre of [row.genre ?? []].flat()) t.true(today.includes(genre), `${row.prompt}: ${genre}`);
});

for (const row of PROMPT_TABLE) {
  const name = JSON.stringify(row.prompt);
  const pending = row.pending ? ` (pending: ${row.pending.split(':')[0]})` : '';

  test(`${name} is read as ${LANGUAGE_NAMES[row.language]}`, (t) => {
    const entry = spec(row.prompt).trace.find((e) => e.source === 'language');
    t.truthy(entry);
    t.true(entry!.effect.startsWith(LANGUAGE_NAMES[row.language]!), entry!.effect);
  });

  test(`${name} is understood: no "nothing recognised" warning`, (t) => {
    t.false(spec(row.prompt).warnings.some((w) => w.startsWith('Nothing in the prompt')));
  });

  if (row.genre) {
    test(`${name} is ${[row.genre].flat().join(' or ')}${pending}`, (t) => {
      t.true([row.genre].flat().includes(spec(row.prompt).genre), spec(row.prompt).genre);
    });
  }
  if (row.bpm) {
    const [min, max] = row.bpm;
    test(`${name} plays at ${min === max ? min : `${min}–${max}`} bpm`, (t) => {
      const { bpm } = spec(row.prompt);
      t.true(bpm >= min && bpm <= max, String(bpm));
    });
  }
  if (row.mode) {
    test(`${name} is in a ${row.mode} mode`, (t) => {
      const { mode } = spec(row.prompt).key;
      const allowed = row.mode === 'dark' ? DARK : row.mode === 'bright' ? BRIGHT : [row.mode!];
      t.true(allowed.includes(mode), mode);
    });
  }
  if (row.meter) {
    test(`${name} is in ${row.meter}`, (t) => {
      const { meter } = spec(row.prompt);
      t.is(`${meter.beatsPerBar}/${meter.beatUnit}`, row.meter!);
    });
  }
  for (const patch of row.instruments ?? []) {
    test(`${name} plays ${patch}`, (t) => {
      t.true(patches(spec(row.prompt)).includes(patch), patches(spec(row.prompt)).join(', '));
    });
  }
  if (row.solo) {
    test(`${name} is a solo: no drums and at most one other instrument`, (t) => {
      const s = spec(row.prompt);
      t.false(s.instruments.some((i) => i.role === 'drums'));
      t.true(new Set(patches(s)).size <= 2, patches(s).join(', '));
    });
  }
  if (row.noDrums) {
    test(`${name} has no drums`, (t) => {
      t.false(spec(row.prompt).instruments.some((i) => i.role === 'drums'));
    });
  }
  if (row.vocals !== undefined) {
    test(`${name} is ${row.vocals ? 'sung' : 'instrumental'}`, (t) => {
      t.is(spec(row.prompt).vocals.enabled, row.vocals!);
    });
  }
  if (row.rain) {
    test(`${name} has rain`, (t) => {
      t.true(spec(row.prompt).effects.rain);
    });
  }
  for (const word of row.warnings ?? []) {
    test(`${name} warns about ${word}`, (t) => {
      const { warnings } = spec(row.prompt);
      t.true(
        warnings.some((w) => w.includes(word)),
        warnings.join(' | '),
      );
    });
  }
  if (row.subject) {
    test(`${name} has ${row.subject} in the title`, (t) => {
      t.true(spec(row.prompt).title.toLowerCase().includes(row.subject!.toLowerCase()), spec(row.prompt).title);
    });
    if (row.vocals) {
      test(`${name} sings ${row.subject} in the lyrics`, (t) => {
        t.true(lyricsOf(spec(row.prompt))!.toLowerCase().includes(row.subject!.toLowerCase()));
      });
    }
  }
  if (row.occasion && row.vocals) {
    test(`${name} sings the ${row.occasion} in the lyrics`, (t) => {
      t.true(lyricsOf(spec(row.prompt))!.toLowerCase().includes(row.occasion!));
    });
  }
}
