/**
 * Extend and redo-a-section through renderTrack: real renders, and the WAV bytes outside the changed region
 * compared with the source's WAV bytes (read with wavefile, not the engine's numbers).
 */
import test from 'ava';
import wavefile from 'wavefile';
import type { GenerationRequest } from '../../engine/types.ts';
import { renderTrack } from '../../engine/track.ts';

const REQUEST: GenerationRequest = { prompt: 'chill lofi beat, 90 bpm, in Eb major', duration: 30, style: null, instrumental: true, seed: 4242 };

/** Sample bytes (after the 44-byte header this encoder writes) of frames [start, end). */
function frameBytes(wav: Uint8Array, start: number, end: number): Buffer {
  const header = new wavefile.WaveFile(wav);
  const frame = 2 * (Number((header.fmt as { bitsPerSample: number }).bitsPerSample) / 8);
  return Buffer.from(wav.subarray(44 + start * frame, 44 + end * frame));
}

const source = renderTrack(REQUEST);

test('an extension keeps every source byte up to the bar line of its ending and is as long as asked', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const extended = await renderTrack({ ...REQUEST, duration: 36 }, { splice: { kind: 'extend', wav: original.wav, sections } });
  const cut = Math.round(sections[sections.length - 1]!.start * 44100);
  t.true(cut > 0);
  t.true(frameBytes(extended.wav, 0, cut).equals(frameBytes(original.wav, 0, cut)));
  t.is(extended.audioSeconds, 36);
});

test('a redone section leaves the bytes before and after it identical and changes the inside', async (t) => {
  const original = await source;
  const sections = original.metadata.sections;
  const redo = await renderTrack({ ...REQUEST, music: { energy: 0.95 } }, { splice: { kind: 'remix', wav: original.wav, sections, section: 1 } });
  const start = Math.round(sections[1]!.start * 44100);
  const end = Math.round(sections[1]!.end * 44100);
  const total = original.wav.length;
  t.is(redo.wav.length, total);
  t.true(frameBytes(redo.wav, 0, start).equals(frameBytes(original.wav, 0, start)));
  t.true(frameBytes(redo.wav, end, 30 * 44100).equals(frameBytes(original.wav, end, 30 * 44100)));
  t.false(frameBytes(redo.wav, start + 4410, end - 4410).equals(frameBytes(original.wav, start + 4410, end - 4410)));
});
