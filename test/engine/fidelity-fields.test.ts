/**
 * The musical fields are heard (issue 16, item 1): explicit bpm and key over a sample of styles × 2 seeds,
 * and each meter's tempo, measured by the independent analysers the prompt-fidelity tests use (bpm-tools,
 * aubiotrack, the chroma key finder), never by the engine's own numbers. `npm run bench:fidelity` runs every
 * style; its figures are in docs/engine.md.
 */
import test from 'ava';
import { createTrackRenderer, type TrackRenderer } from '../helpers/analysis/renders.ts';
import { describeFigures, measureFields, type FieldCase } from '../helpers/analysis/field-fidelity.ts';
import { meterCases, styleCases } from '../../bench/fidelity.ts';
import { listStyles } from '../../engine/index.ts';

/**
 * Styles of different families: strummed acoustic, electronic, swung keys, distorted guitars. The sampled
 * orchestra is left to the bench: its slow attacks make it the trackers' hardest case, and at 140 it has been
 * heard 2–4 bpm fast with a choir carrying the tune (the bench now hears orchestral and cinematic within 1).
 */
const STYLES = ['folk', 'house', 'lofi', 'rock'];
/**
 * The key is also checked on a minor funk vamp on chopped guitar and a reggaeton 808, both heard in another key
 * before the key-clarity fixes (key-clarity.test.ts). Their tempo is not: the sample gives funk 84 bpm, where
 * aubio follows the eighths at about 170 on one seed (1.3 bpm off; the bench plays funk at 110, where it is heard).
 */
const KEY_STYLES = [...STYLES, 'funk', 'reggaeton'];
const SEEDS = [4242, 777];
const KEYED = styleCases(STYLES, SEEDS);
const KEY_ONLY = styleCases(KEY_STYLES, SEEDS).filter((c) => !KEYED.some((k) => k.name === c.name));
/** Ambient as the bench asks it (97 bpm): a beatless style, kept in time by the arpeggio an explicit bpm brings in. */
const BEATLESS = styleCases(
  listStyles().map((s) => s.name),
  SEEDS,
).filter((c) => c.request.style === 'ambient');
/** Each meter on the style whose instruments carry it: the kit's pulse, a strum, a bass on strong beats. */
const METERED: FieldCase[] = [
  ...meterCases(['folk'], 4242).filter((c) => /-(3-4|5-4|6-8|7-8)-/.test(c.name)),
  ...meterCases(['rock'], 4242).filter((c) => /-12-8-/.test(c.name)),
];

let renderer: TrackRenderer;
test.before(async () => {
  renderer = await createTrackRenderer({ prefix: 'tunesmith-fidelity-fields-' });
  for (const entry of [...KEYED, ...KEY_ONLY, ...BEATLESS, ...METERED]) void renderer.render(entry.name, entry.request);
});
test.after.always(async () => {
  await renderer?.close();
});

test(`an explicit bpm is heard within 1 bpm (or its double or half) on ${KEYED.length} renders of ${STYLES.length} styles × 2 seeds`, async (t) => {
  const figures = await Promise.all(KEYED.map((entry) => measureFields(renderer, entry)));
  for (const f of figures) t.log(describeFigures(f));
  const missed = figures.filter((f) => f.tempoError === null || f.tempoError > 1);
  t.deepEqual(
    missed.map((f) => f.name),
    [],
  );
});

test(`an explicit key is heard: MIREX averages >= 0.9 over ${KEY_STYLES.length} styles × 2 seeds`, async (t) => {
  const figures = await Promise.all([...KEYED, ...KEY_ONLY].map((entry) => measureFields(renderer, entry)));
  const scores = figures.map((f) => f.keyScore!);
  const mean = scores.reduce((s, v) => s + v, 0) / scores.length;
  t.log(figures.map((f) => `${f.name}: asked ${f.asked.key}, heard ${f.heard.key} -> ${f.keyScore}`).join('\n'));
  t.true(mean >= 0.9, `MIREX mean ${mean.toFixed(3)} (${scores.join(', ')})`);
});

test('a beatless style (ambient) with an explicit bpm is heard at that bpm on both seeds', async (t) => {
  const figures = await Promise.all(BEATLESS.map((entry) => measureFields(renderer, entry)));
  for (const f of figures) t.log(describeFigures(f));
  t.deepEqual(
    figures.filter((f) => f.tempoError === null || f.tempoError > 1).map((f) => f.name),
    [],
  );
});

for (const entry of METERED) {
  test(`${entry.request.music!.timeSignature} at ${entry.request.music!.bpm} bpm (${entry.request.style}) is heard at its pulse, not a stretched 4/4 grid`, async (t) => {
    const f = await measureFields(renderer, entry);
    t.log(describeFigures(f));
    t.true(f.tempoError !== null && f.tempoError <= 1, describeFigures(f));
  });
}
