/**
 * Extend and redo-a-section through renderTrack: real renders, and the WAV bytes outside the changed region
 * compared with the source's WAV bytes (read with wavefile, not the engine's numbers).
 */
import test from 'ava';
import wavefile from 'wavefile';
import type { GenerationRequest } from '../../engine/types.ts';
import { renderTrack } from '../../engine/track.ts';
import { abruptness } from '../helpers/analysis/seam.ts';
import { decodeWav, monoMix } from '../helpers/analysis/wav.ts';

const REQUEST: GenerationRequest = {
  prompt: 'chill lofi beat, 90 bpm, in Eb major',
  duration: 30,
  style: null,
  instrumental: true,
  seed: 4242,
};

/** Sample bytes (after the 44-byte header this encoder writes) of frames [start, end). */
function frameBytes(wav: Uint8Array, start: number, end: number): Buffer {
  const header = new wavefile.WaveFile(wav);
  const frame = 2 * (Number((header.fmt as { bitsPerSample: number }).bitsPerSample) / 8);
  return Buffer.from(wav.subarray(44 + start * frame, 44 + end * frame));
}

const rateOf = (wav: Uint8Array) => Number((new wavefile.WaveFile(wav).fmt as { sampleRate: number }).sampleRate);

const source = renderTrack(REQUEST);

test('an extension keeps every source byte up to the bar line of its ending and is as long as asked', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const extended = await renderTrack(
    { ...REQUEST, duration: 36 },
    { splice: { kind: 'extend', wav: original.wav, sections } },
  );
  const cut = Math.round(sections[sections.length - 1]!.start * 44100);
  t.true(cut > 0);
  t.true(frameBytes(extended.wav, 0, cut).equals(frameBytes(original.wav, 0, cut)));
  t.is(extended.audioSeconds, 36);
});

test('a redone section leaves the bytes before and after it identical and changes the inside', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const redo = await renderTrack(
    { ...REQUEST, music: { energy: 0.95 } },
    { splice: { kind: 'remix', wav: original.wav, sections, section: 1 } },
  );
  const start = Math.round(sections[1]!.start * 44100);
  const end = Math.round(sections[1]!.end * 44100);
  const total = original.wav.length;
  t.is(redo.wav.length, total);
  t.true(frameBytes(redo.wav, 0, start).equals(frameBytes(original.wav, 0, start)));
  t.true(frameBytes(redo.wav, end, 30 * 44100).equals(frameBytes(original.wav, end, 30 * 44100)));
  t.false(frameBytes(redo.wav, start + 4410, end - 4410).equals(frameBytes(original.wav, start + 4410, end - 4410)));
});

/**
 * Frames of the source's bar lines where the music itself moves on: from the start of its second section (a section
 * change) up to, not including, its ending (where an extension's seam is). Section times are reported to 0.01 s.
 */
function barLines(track: Awaited<typeof source>): number[] {
  const { sections, bpm, meter } = track.metadata;
  const bar = (60 / bpm) * Number(meter.split('/')[0]);
  const lines: number[] = [];
  for (let time = sections[1]!.start; time < sections.at(-1)!.start - 0.01; time += bar)
    lines.push(Math.round(time * 44100));
  return lines;
}

test("the seams of an extension and a redone section are no more abrupt than the source's own bar lines", async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const bars = abruptness(monoMix(decodeWav(original.wav)), 44100, barLines(original));
  const worst = { step: Math.max(...bars.map((b) => b.step)), flux: Math.max(...bars.map((b) => b.flux)) };
  const extended = await renderTrack(
    { ...REQUEST, duration: 40 },
    { splice: { kind: 'extend', wav: original.wav, sections } },
  );
  const redo = await renderTrack(
    { ...REQUEST, music: { energy: 0.95 } },
    { splice: { kind: 'remix', wav: original.wav, sections, section: 1 } },
  );
  const seams = [
    ...abruptness(monoMix(decodeWav(extended.wav)), 44100, [Math.round(sections.at(-1)!.start * 44100)]).map((s) => ({
      ...s,
      at: 'extension',
    })),
    ...abruptness(
      monoMix(decodeWav(redo.wav)),
      44100,
      [sections[1]!.start, sections[1]!.end].map((time) => Math.round(time * 44100)),
    ).map((s, i) => ({ ...s, at: i === 0 ? 'redo start' : 'redo end' })),
  ];
  for (const seam of seams) {
    t.true(
      seam.step <= worst.step + 3,
      `${seam.at}: a level step of ${seam.step.toFixed(1)} dB, bar lines at most ${worst.step.toFixed(1)}`,
    );
    t.true(
      seam.flux <= worst.flux * 1.15,
      `${seam.at}: flux ${seam.flux.toFixed(0)}, bar lines at most ${worst.flux.toFixed(0)}`,
    );
  }
});

test('a 48 kHz source is extended and redone at 48 kHz: its bytes outside the region are kept', async (t) => {
  const request: GenerationRequest = { ...REQUEST, output: { sampleRate: 48000, bitDepth: 24 } };
  const original = await renderTrack(request);
  t.is(rateOf(original.wav), 48000);
  const sections = original.metadata.sections;
  const extended = await renderTrack(
    { ...request, duration: 36 },
    { splice: { kind: 'extend', wav: original.wav, sections } },
  );
  t.is(rateOf(extended.wav), 48000);
  const cut = Math.round(sections.at(-1)!.start * 48000);
  t.true(frameBytes(extended.wav, 0, cut).equals(frameBytes(original.wav, 0, cut)));
  t.is(extended.audioSeconds, 36);

  const redo = await renderTrack(
    { ...request, music: { energy: 0.95 } },
    { splice: { kind: 'remix', wav: original.wav, sections, section: 1 } },
  );
  const start = Math.round(sections[1]!.start * 48000);
  const end = Math.round(sections[1]!.end * 48000);
  t.is(redo.wav.length, original.wav.length);
  t.true(frameBytes(redo.wav, 0, start).equals(frameBytes(original.wav, 0, start)));
  t.true(frameBytes(redo.wav, end, 30 * 48000).equals(frameBytes(original.wav, end, 30 * 48000)));
  t.false(frameBytes(redo.wav, start + 4800, end - 4800).equals(frameBytes(original.wav, start + 4800, end - 4800)));
});
