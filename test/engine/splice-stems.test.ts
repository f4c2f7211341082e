/**
 * The stems of an extension and of a redone section, from real renders: decoded from their WAV files (the test's own
 * reader, not the engine's numbers), they add up to the derived mix outside the changed region, where the mix is the
 * source's, and inside it.
 */
import test from 'ava';
import type { GenerationRequest } from '../../engine/types.ts';
import { createRenderPool } from '../../engine/pool.ts';
import { renderTrack, type RenderedTrack } from '../../engine/track.ts';
import { decodeWav } from '../helpers/analysis/wav.ts';

const REQUEST: GenerationRequest = {
  prompt: 'chill lofi beat, 90 bpm, in Eb major',
  duration: 30,
  style: null,
  instrumental: true,
  seed: 4242,
  stems: true,
};
const RATE = 44100;
/** The bar of test/engine/stems.test.ts: the 16-bit rounding of each file alone leaves about −77 dB. */
const MAX_RESIDUAL_DB = -40;

const source = renderTrack(REQUEST);

/** RMS of (Σ stems − mix) over frames [start, end), relative to the mix's RMS there, dB. */
function residualDb(track: RenderedTrack, start: number, end: number): number {
  const mix = decodeWav(track.wav).channelData;
  const stems = (track.stems ?? []).map((stem) => decodeWav(stem.wav).channelData);
  let rest = 0;
  let whole = 0;
  for (let c = 0; c < 2; c++) {
    for (let i = start; i < end; i++) {
      const sum = stems.reduce((total, stem) => total + (stem[c]![i] ?? 0), 0);
      rest += (sum - mix[c]![i]!) ** 2;
      whole += mix[c]![i]! ** 2;
    }
  }
  return 10 * Math.log10(rest / whole);
}

const framesOf = (track: RenderedTrack) => decodeWav(track.wav).frames;

test('the stems of an extension, rendered on a render thread, add up to its mix before the seam (the source kept) and after it', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  // The pool transfers the source's WAV and stems to its thread: copies, so the other test keeps its own.
  const pool = createRenderPool({ workers: 1 });
  t.teardown(() => pool.close());
  const stems = original.stems!.map((stem) => ({ role: stem.role, wav: stem.wav.slice() }));
  const extended = await pool.render(
    { ...REQUEST, duration: 36 },
    { splice: { kind: 'extend', wav: original.wav.slice(), sections, stems } },
  );
  const cut = Math.round(sections.at(-1)!.start * RATE);
  const frames = framesOf(extended);
  for (const stem of extended.stems!) t.is(decodeWav(stem.wav).frames, frames, `${stem.role} is as long as the mix`);
  const before = residualDb(extended, 0, cut);
  const after = residualDb(extended, cut, frames);
  t.log(`Σ stems − mix: ${before.toFixed(1)} dB before the seam, ${after.toFixed(1)} dB after`);
  t.true(before < MAX_RESIDUAL_DB, `before the seam: ${before.toFixed(1)} dB`);
  t.true(after < MAX_RESIDUAL_DB, `after the seam: ${after.toFixed(1)} dB`);
});

test('the stems of a redone section add up to its mix before, inside and after the section', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const redo = await renderTrack(
    { ...REQUEST, music: { energy: 0.95 } },
    { splice: { kind: 'remix', wav: original.wav, sections, section: 1, stems: original.stems! } },
  );
  const start = Math.round(sections[1]!.start * RATE);
  const end = Math.round(sections[1]!.end * RATE);
  const frames = framesOf(redo);
  for (const [where, from, to] of [
    ['before', 0, start],
    ['inside', start, end],
    ['after', end, frames],
  ] as const) {
    const residual = residualDb(redo, from, to);
    t.log(`Σ stems − mix ${where} the section: ${residual.toFixed(1)} dB`);
    t.true(residual < MAX_RESIDUAL_DB, `${where} the section: ${residual.toFixed(1)} dB`);
  }
});
