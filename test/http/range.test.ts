import test from 'ava';
import { parseRange } from '../../src/http/range.ts';

test('a closed range is clamped to the file', (t) => {
  t.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 });
  t.deepEqual(parseRange('bytes=900-5000', 1000), { start: 900, end: 999 });
});

test('open and suffix ranges', (t) => {
  t.deepEqual(parseRange('bytes=990-', 1000), { start: 990, end: 999 });
  t.deepEqual(parseRange('bytes=-10', 1000), { start: 990, end: 999 });
  t.deepEqual(parseRange('bytes=-5000', 1000), { start: 0, end: 999 });
});

test('ranges starting past the end and empty suffixes are unsatisfiable', (t) => {
  t.is(parseRange('bytes=1000-', 1000), 'unsatisfiable');
  t.is(parseRange('bytes=-0', 1000), 'unsatisfiable');
});

test('what we do not follow means "send the whole file"', (t) => {
  for (const header of ['', 'bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes=a-b'])
    t.is(parseRange(header, 1000), undefined, header);
});
