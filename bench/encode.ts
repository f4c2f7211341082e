/**
 * Encoding cost per minute of audio, in one thread: each format from the same rendered 60 s master, rounds
 * alternating between formats so machine load hits them alike, with the bytes each takes a minute. Then a 60 s
 * render alone against render + every format, alternating, for the total the render worker spends.
 *
 *   npm run bench:encode [-- --rounds N]
 */
import { parseArgs } from 'node:util';
import { renderTrack, type GenerationRequest, type OutputOptions } from '../engine/index.ts';
import { compose } from '../engine/compose/index.ts';
import { encodeOutputs } from '../engine/encode/index.ts';
import { interpret } from '../engine/interpret/index.ts';
import { renderScore } from '../engine/render/index.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Math.max(1, Number(values.rounds));
const SECONDS = 60;
const REQUEST: GenerationRequest = {
  prompt: 'an upbeat pop song about the city at night',
  duration: SECONDS,
  style: null,
  instrumental: false,
  seed: 3,
};

const CASES: Record<string, OutputOptions> = {
  'WAV 16-bit 44.1 kHz': {},
  'WAV 24-bit 44.1 kHz': { bitDepth: 24 },
  'WAV 24-bit 48 kHz': { bitDepth: 24, sampleRate: 48000 },
  'FLAC 16-bit 44.1 kHz': { formats: ['flac'] },
  'FLAC 24-bit 48 kHz': { formats: ['flac'], bitDepth: 24, sampleRate: 48000 },
  'MP3 VBR -V2': { formats: ['mp3'] },
  'MP3 CBR 320': { formats: ['mp3'], mp3Bitrate: 320 },
  'Opus 160 kbps': { formats: ['opus'] },
  'LRC + WebVTT': { formats: ['lrc', 'vtt'] },
};

console.log(`Rendering the ${SECONDS} s master once…`);
const spec = interpret(REQUEST);
const score = compose(spec);
const audio = await renderScore(score);
const lyrics = score.vocal?.lines ?? null;
const input = { left: audio.left, right: audio.right, sampleRate: audio.sampleRate, title: spec.title, lyrics };

const times = new Map<string, number[]>();
const sizes = new Map<string, number>();
for (let round = 0; round < rounds; round++) {
  // Alternate the order each round, so a burst of load elsewhere is not always on the same format.
  const names = round % 2 === 0 ? Object.keys(CASES) : Object.keys(CASES).reverse();
  for (const name of names) {
    const options = CASES[name]!;
    const started = performance.now();
    const { wav, outputs } = await encodeOutputs(input, options);
    const ms = performance.now() - started;
    // Each case also writes the WAV it derives from; only the formats beyond it are timed for those.
    const extra = Object.values(outputs);
    const bytes = extra.length > 0 ? extra.reduce((sum, b) => sum + b.byteLength, 0) : wav.byteLength;
    times.set(name, [...(times.get(name) ?? []), ms]);
    sizes.set(name, bytes);
  }
}
const baseWav = median(times.get('WAV 16-bit 44.1 kHz')!);
console.log(`\nformat               | encode s per audio minute (median of ${rounds}) | MB per minute`);
console.log('-------------------- | ------------------------------------ | -------------');
for (const name of Object.keys(CASES)) {
  const ms = median(times.get(name)!);
  // The cases beyond the WAV include writing a WAV; subtract the 16-bit WAV's own time for them.
  const own = name.startsWith('WAV') ? ms : Math.max(0, ms - baseWav);
  console.log(
    `${name.padEnd(20)} | ${(own / 1000 / (SECONDS / 60)).toFixed(2).padStart(36)} | ${(sizes.get(name)! / 1e6 / (SECONDS / 60)).toFixed(2).padStart(13)}`,
  );
}

console.log(`\nRender only vs render + every format (${SECONDS} s sung track, alternating, ${rounds} rounds each):`);
const all: OutputOptions = { formats: ['mp3', 'opus', 'flac', 'lrc', 'vtt'] };
const renderOnly: number[] = [];
const withAll: number[] = [];
let stored = 0;
for (let round = 0; round < rounds; round++) {
  for (const output of round % 2 === 0 ? [undefined, all] : [all, undefined]) {
    const track = await renderTrack({ ...REQUEST, ...(output ? { output } : {}) });
    (output ? withAll : renderOnly).push(track.renderMs);
    if (output)
      stored =
        track.wav.byteLength +
        track.midi.byteLength +
        Object.values(track.outputs).reduce((sum, b) => sum + b.byteLength, 0);
  }
}
console.log(`  render only          ${(median(renderOnly) / 1000).toFixed(2)} s`);
console.log(
  `  render + all formats ${(median(withAll) / 1000).toFixed(2)} s  (+${((median(withAll) - median(renderOnly)) / 1000).toFixed(2)} s, ×${(median(withAll) / median(renderOnly)).toFixed(2)})`,
);
console.log(`  stored with every format: ${(stored / 1e6 / (SECONDS / 60)).toFixed(2)} MB per minute of audio`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
