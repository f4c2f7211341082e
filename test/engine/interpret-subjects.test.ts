/**
 * Who and what a song is about, as the lyrics need it: a pet or person named after its relation anywhere in the
 * prompt ("about my dog Biscuit"), two names ("for Anna and Tom"), and the topic the prompt says it is about.
 */
import test from 'ava';
import { extractSubjects } from '../../engine/interpret/subjects.ts';

const nothingKnown = (): boolean => false;

test('"about my dog Biscuit" names Biscuit, with the relation', (t) => {
  const subjects = extractSubjects('a funny song about my dog Biscuit', nothingKnown, 'my dog Biscuit');
  t.deepEqual(subjects.names, ['Biscuit']);
  t.is(subjects.relation, 'my dog');
  t.is(subjects.topic, 'my dog Biscuit');
});

test('"our cat, Luna" and "my best friend Sam" name them too; a lower-case word after the relation does not', (t) => {
  t.deepEqual(extractSubjects('a lullaby for our cat, Luna', nothingKnown).names, ['Luna']);
  t.deepEqual(extractSubjects('a song about my best friend Sam', nothingKnown).names, ['Sam']);
  t.deepEqual(extractSubjects('a song about my dog playing', nothingKnown).names, []);
});

test('"for Anna and Tom" names both', (t) => {
  t.deepEqual(extractSubjects('a wedding song for Anna and Tom', nothingKnown).names, ['Anna', 'Tom']);
});

test('without "about" there is no topic', (t) => {
  t.is(extractSubjects('a happy summer pop song', nothingKnown).topic, null);
});
