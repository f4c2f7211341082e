/**
 * The request's musical fields in interpretation: each wins over what the prompt says, a disagreement is a
 * warning naming both, and a request without fields is interpreted exactly as before.
 */
import test from 'ava';
import { interpret, listStyles, type GenerationRequest, type MusicalFields } from '../../engine/index.ts';
import { compose } from '../../engine/compose/index.ts';

const spec = (prompt: string, music?: MusicalFields, overrides: Partial<GenerationRequest> = {}) =>
  interpret({
    prompt,
    duration: 60,
    style: null,
    instrumental: true,
    seed: 7,
    ...(music ? { music } : {}),
    ...overrides,
  });

test("the bpm field wins over the prompt's tempo and the disagreement is a warning", (t) => {
  const s = spec('folk tune at 120 bpm', { bpm: 97 });
  t.is(s.bpm, 97);
  t.true(s.warnings.includes('The prompt says "120 bpm" but the "bpm" field asks for 97: the field wins.'));
  t.true(s.trace.some((e) => e.source === 'bpm field' && e.effect.startsWith('bpm = 97')));
});

test('a bpm field that agrees with the prompt is no warning', (t) => {
  t.deepEqual(
    spec('folk tune at 97 bpm', { bpm: 97 }).warnings.filter((w) => w.includes('field')),
    [],
  );
});

test("the key field wins over the prompt's key, modes included", (t) => {
  const s = spec('sad piano in C major', { key: 'D dorian' });
  t.deepEqual(s.key, { tonic: 'D', mode: 'dorian' });
  t.true(s.warnings.includes('The prompt says "C major" but the "key" field asks for D dorian: the field wins.'));
});

test('the key field spells flats and sharps as the engine does', (t) => {
  t.deepEqual(spec('piano', { key: 'Db harmonic minor' }).key, { tonic: 'C#', mode: 'harmonicMinor' });
  t.deepEqual(spec('piano', { key: 'bb Major' }).key, { tonic: 'Bb', mode: 'major' });
});

test("the time_signature field wins over the prompt's meter", (t) => {
  const s = spec('a folk song in 6/8', { timeSignature: '7/8' });
  t.deepEqual(s.meter, { beatsPerBar: 7, beatUnit: 8 });
  t.true(s.warnings.includes('The prompt says "6/8" but the "time_signature" field asks for 7/8: the field wins.'));
});

test('bpm counts the pulse: 90 in 6/8 is 270 eighths, 100 in 7/8 is 200 eighths, 97 in 3/4 is 97 quarters', (t) => {
  t.is(spec('folk', { bpm: 90, timeSignature: '6/8' }).bpm, 270);
  t.is(spec('folk', { bpm: 100, timeSignature: '7/8' }).bpm, 200);
  t.is(spec('folk', { bpm: 97, timeSignature: '3/4' }).bpm, 97);
});

test("a style moved to another meter keeps its pulse: celtic's dotted quarters become 4/4 quarters", (t) => {
  const own = spec('an instrumental track', undefined, { style: 'celtic' });
  const moved = spec('an instrumental track', { timeSignature: '4/4' }, { style: 'celtic' });
  t.is(moved.bpm, Math.round(own.bpm / 3));
});

test('energy sets the arousal and wins over calm words, with a warning', (t) => {
  const s = spec('calm peaceful ambient', { energy: 0.9 });
  t.is(s.arousal, 0.8);
  t.true(
    s.warnings.some((w) =>
      /^The prompt's .*"calm".* asks for less energy than the "energy" field's 0.9: the field wins\.$/.test(w),
    ),
    s.warnings.join(' | '),
  );
});

test('instruments join the arrangement, exclude leaves roles and instruments out', (t) => {
  const s = spec('a rock song', { instruments: ['cello'], exclude: ['drums'] });
  t.true(s.instruments.some((i) => i.instrument === 'cello'));
  t.false(s.instruments.some((i) => i.role === 'drums'));
  t.true(s.excluded.includes('drums'));
});

test('an instrument field wins over the prompt leaving it out', (t) => {
  const s = spec('a jazz tune with no piano', { instruments: ['piano'] });
  t.true(s.instruments.some((i) => i.instrument === 'piano'));
  t.true(
    s.warnings.includes('The prompt leaves out "piano" but the "instruments" field asks for piano: the field wins.'),
  );
});

test('excluding the vocals wins over a prompt that asks for a singer', (t) => {
  const s = spec('a happy folk song with a female singer', { exclude: ['vocals'] }, { instrumental: false });
  t.false(s.vocals.enabled);
  t.true(
    s.warnings.includes('The prompt asks for a singer but the "exclude" field leaves out the vocals: the field wins.'),
  );
});

test('empty fields change nothing: the spec is deep-equal to the one without them', (t) => {
  t.deepEqual(spec('rainy night study beats', {}), spec('rainy night study beats'));
});

test('a meter written in the prompt that has no grooves of its own is played stretched, and a warning says so', (t) => {
  const s = spec('a folk tune in 9/8');
  t.deepEqual(s.meter, { beatsPerBar: 9, beatUnit: 8 });
  t.true(
    s.warnings.includes(
      '"9/8" has no grooves of its own: folk\'s 4/4 groove is stretched over its bar. Meters with grooves of their own: 3/4, 4/4, 5/4, 6/8, 7/8, 12/8.',
    ),
    s.warnings.join(' | '),
  );
});

test('a meter with grooves of its own is no warning', (t) => {
  t.deepEqual(spec('a folk tune in 7/8').warnings, []);
});

test('an instrument the instruments field asks for plays in every style, even where the form has no section for its role', (t) => {
  // A 16 s loop is all one main section (no intro to hold an arpeggio): the harp must still play there.
  for (const { name } of listStyles()) {
    for (const instrument of ['harp', 'mandolin', 'piano']) {
      for (const shape of [{ duration: 30 }, { duration: 16, loop: true }]) {
        const score = compose(
          spec(`an instrumental ${name} track`, { instruments: [instrument] }, { style: name, ...shape }),
        );
        const silent = score.parts
          .filter((part) => part.notes.length === 0)
          .map((part) => `${part.role}:${part.instrument}`);
        t.deepEqual(silent, [], `${name} with ${instrument}${shape.loop ? ' (loop)' : ''}`);
      }
    }
  }
});

test('an explicit bpm on ambient, which has no beat, brings in a soft arpeggio that keeps it; without the field it stays beatless', (t) => {
  const timed = spec('a calm ambient soundscape', { bpm: 97 }, { style: 'ambient' });
  t.true(timed.instruments.some((c) => c.role === 'arp' && c.instrument === 'pluck'));
  t.true(timed.trace.some((e) => e.source === 'bpm field' && /keeps the asked 97 bpm/.test(e.effect)));
  t.false(spec('a calm ambient soundscape', undefined, { style: 'ambient' }).instruments.some((c) => c.role === 'arp'));
  // A style that keeps time by itself gets nothing added.
  t.false(spec('a folk tune', { bpm: 97 }, { style: 'folk' }).trace.some((e) => /keeps the asked/.test(e.effect)));
});
