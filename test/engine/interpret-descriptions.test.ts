/**
 * Issue 24: descriptions written the way reviewers and music libraries write them, several sentences each, with
 * what a musician would expect of each (description-table.json). One test per row, naming every expectation the
 * engine missed; rows marked `miss` are known misses, expected to fail until they are fixed.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { interpret } from '../../engine/interpret/index.ts';
import { listStyles } from '../../engine/presets.ts';
import { type DescriptionRow, judge, POINTS } from './description-judge.ts';

const ROWS: DescriptionRow[] = JSON.parse(readFileSync(new URL('./description-table.json', import.meta.url), 'utf8'));

const spec = (prompt: string) =>
  interpret({ prompt, duration: 90, seed: 1, style: null, instrumental: false, lyrics: null });

test('the table holds at least 60 descriptions of several sentences or clauses, every point of the issue in ten or more', (t) => {
  t.true(ROWS.length >= 60, String(ROWS.length));
  for (const point of POINTS) {
    const rows = ROWS.filter((r) => r.points.includes(point)).length;
    t.true(rows >= 10 || (point === 'recording' && rows >= 8), `${point}: ${rows}`);
  }
  t.is(new Set(ROWS.map((r) => r.id)).size, ROWS.length, 'ids are unique');
});

test('the table expects only genres that have a preset', (t) => {
  const styles = listStyles().map((style) => style.name);
  for (const row of ROWS)
    for (const genre of [row.genre ?? []].flat()) t.true(styles.includes(genre), `${row.id}: ${genre}`);
});

for (const row of ROWS) {
  const check = row.miss ? test.failing : test;
  check(`${row.id}: ${row.prompt}`, (t) => {
    const missed = judge(row, spec(row.prompt)).filter((c) => !c.ok);
    t.deepEqual(
      missed.map((c) => `${c.what} (got ${c.got})`),
      [],
    );
  });
}
