/**
 * Custom styles in the engine: a built-in preset with changes, checked as a preset file is, played in place of
 * the base's file, its tonic and meter preferred where the prompt and the fields name none.
 */
import test from 'ava';
import {
  compose,
  getPreset,
  interpret,
  InvalidStyleError,
  makeCustomStyle,
  type CustomStyle,
  type MusicalFields,
} from '../../engine/index.ts';

const spec = (prompt: string, customStyle: CustomStyle, music?: MusicalFields) =>
  interpret({
    prompt,
    duration: 60,
    style: customStyle.base,
    instrumental: true,
    seed: 11,
    customStyle,
    ...(music ? { music } : {}),
  });

const waltzyLofi = makeCustomStyle('waltzy-lofi', 'lofi', {
  description: 'Lo-fi in three, on a flute',
  bpm: { min: 60, max: 66 },
  key: 'F# minor',
  time_signature: '3/4',
  instruments: { lead: 'flute', texture: null },
  swing: 0.2,
  reverb: 0.6,
  vocals: false,
});

test('a custom style is its base with the changes, and leaves the built-in preset as it was', (t) => {
  const { preset } = waltzyLofi;
  const lofi = getPreset('lofi');
  t.is(preset.name, 'lofi');
  t.is(preset.description, 'Lo-fi in three, on a flute');
  t.deepEqual(preset.bpm, { min: 60, max: 66, default: 63 });
  t.deepEqual(preset.modes, ['minor']);
  t.is(preset.instruments.lead, 'flute');
  t.is(preset.instruments.texture, undefined);
  t.is(preset.swing, 0.2);
  t.is(preset.effects.reverb, 0.6);
  t.false(preset.vocal);
  t.is(waltzyLofi.tonic, 'F#');
  t.is(waltzyLofi.mode, 'minor');
  t.deepEqual(waltzyLofi.meter, { beatsPerBar: 3, beatUnit: 4 });
  t.not(lofi.instruments.lead, 'flute');
  t.not(lofi.description, preset.description);
});

test('the engine plays the custom style: its tempo range, key, meter, instruments and swing, and says why', (t) => {
  const s = spec('a calm beat for the evening', waltzyLofi);
  t.is(s.genre, 'lofi');
  t.true(s.bpm >= 60 && s.bpm <= 66, String(s.bpm));
  t.deepEqual(s.key, { tonic: 'F#', mode: 'minor' });
  t.deepEqual(s.meter, { beatsPerBar: 3, beatUnit: 4 });
  t.is(s.swing, 0.2);
  t.is(s.instruments.find((i) => i.role === 'lead')?.instrument, 'flute');
  t.false(s.instruments.some((i) => i.role === 'texture'));
  t.true(s.trace.some((e) => e.effect.includes('the custom style waltzy-lofi')));
  t.true(s.trace.some((e) => e.effect === 'meter = 3/4 (the style waltzy-lofi)'));
  const score = compose(s);
  t.true(score.parts.some((part) => part.role === 'lead' && part.instrument === 'flute'));
});

test('the prompt and the musical fields win over the style: a key or meter named is played', (t) => {
  t.deepEqual(spec('a calm beat in C major', waltzyLofi).key, { tonic: 'C', mode: 'major' });
  t.is(spec('a happy beat in dorian', waltzyLofi).key.mode, 'dorian');
  t.deepEqual(spec('a happy sunny beat', waltzyLofi).key, { tonic: 'F#', mode: 'minor' });
  t.deepEqual(spec('a calm beat', waltzyLofi, { timeSignature: '4/4' }).meter, { beatsPerBar: 4, beatUnit: 4 });
});

test("a groove takes another style's drums and bass playing, of the same meter", (t) => {
  const style = makeCustomStyle('boom-lofi', 'lofi', { groove: 'funk' });
  t.deepEqual(style.preset.drums, getPreset('funk').drums);
  t.is(style.preset.bass, getPreset('funk').bass);
  t.is(style.preset.instruments.drums, getPreset('lofi').instruments.drums);
  const ambientWithDrums = makeCustomStyle('pulse', 'ambient', { groove: 'house' });
  t.is(ambientWithDrums.preset.instruments.drums, getPreset('house').instruments.drums);
});

test('a change the style cannot have is refused naming the field', (t) => {
  const refused = (base: string, changes: Parameters<typeof makeCustomStyle>[2]) =>
    t.throws(() => makeCustomStyle('x', base, changes), { instanceOf: InvalidStyleError });
  t.is(refused('lofi', { instruments: { lead: 'kazoo' } })?.field, 'instruments.lead');
  t.is(refused('lofi', { instruments: { lead: 'lofiKit' } })?.field, 'instruments.lead');
  t.is(refused('lofi', { instruments: { drums: 'piano' } })?.field, 'instruments.drums');
  t.is(refused('lofi', { instruments: { vocal: 'choir' } })?.field, 'instruments.vocal');
  t.is(refused('ambient', { instruments: { drums: 'acousticKit' } })?.field, 'instruments.drums');
  t.is(refused('lofi', { groove: 'waltz' })?.field, 'groove');
  t.is(refused('lofi', { key: 'H minor' })?.field, 'key');
  t.is(refused('lofi', { modes: ['sad'] })?.field, 'modes[0]');
  t.is(refused('lofi', { time_signature: '9/8' })?.field, 'time_signature');
});

test('an instrument is named as the API names them, or by its patch', (t) => {
  t.is(
    makeCustomStyle('x', 'folk', { instruments: { chords: 'acoustic guitar' } }).preset.instruments.chords,
    'guitar',
  );
  t.is(
    makeCustomStyle('x', 'folk', { instruments: { chords: 'nylonGuitar' } }).preset.instruments.chords,
    'nylonGuitar',
  );
});
