import test from 'ava';
import { exceedsDepth } from '../../src/http/json-body.ts';

test('nesting is counted through objects and arrays', (t) => {
  t.false(exceedsDepth('{"a":[{"b":1}]}', 3));
  t.true(exceedsDepth('{"a":[{"b":[1]}]}', 3));
});

test('brackets inside strings, escaped quotes included, do not count', (t) => {
  t.false(exceedsDepth('{"a":"[[[[{{{{\\"[[[["}', 1));
});

test('a very deep input is answered without recursion', (t) => {
  t.true(exceedsDepth('['.repeat(1_000_000), 20));
});
