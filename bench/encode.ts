/**
 * Encoding cost per minute of audio, in one thread: each format from the same rendered 60 s master, rounds
 * alternating between formats so machine load hits them alike, with the bytes each takes a minute; in wall time
 * and in this process's CPU time (which moves far less with other work on a shared machine). The "from the WAV"
 * rows are what a first download costs (engine/encode/from-wav.ts: reading the stored WAV, then the encoder).
 * Then a 60 s render alone against render + every format, alternating, for the total the render worker spends.
 *
 *   npm run bench:encode [-- --rounds N]
 */
import { parseArgs } from 'node:util';
import { renderTrack, type GenerationRequest, type OutputOptions } from '../engine/index.ts';
import { compose } from '../engine/compose/index.ts';
import { encodeOutputs, encodeWav } from '../engine/encode/index.ts';
import { encodeFromWav, type LaterFormat } from '../engine/encode/from-wav.ts';
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

const FROM_WAV: Record<string, { wav: Uint8Array; format: LaterFormat }> = {
  'MP3 from the WAV': { wav: encodeWav(input.left, input.right, input.sampleRate), format: 'mp3' },
  'Opus from the WAV': { wav: encodeWav(input.left, input.right, input.sampleRate), format: 'opus' },
  'FLAC from the WAV': { wav: encodeWav(input.left, input.right, input.sampleRate), format: 'flac' },
};

const times = new Map<string, number[]>();
const cpuTimes = new Map<string, number[]>();
const sizes = new Map<string, number>();
for (let round = 0; round < rounds; round++) {
  // Alternate the order each round, so a burst of load elsewhere is not always on the same format.
  const all = [...Object.keys(CASES), ...Object.keys(FROM_WAV)];
  const names = round % 2 === 0 ? all : all.reverse();
  for (const name of names) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const fromWav = FROM_WAV[name];
    let bytes: number;
    if (fromWav) {
      bytes = (await encodeFromWav(fromWav.wav, fromWav.format)).byteLength;
    } else {
      const { wav, outputs } = await encodeOutputs(input, CASES[name]!);
      // Each case also writes the WAV it derives from; only the formats beyond it are timed for those.
      const extra = Object.values(outputs);
      bytes = extra.length > 0 ? extra.reduce((sum, b) => sum + b.byteLength, 0) : wav.byteLength;
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    times.set(name, [...(times.get(name) ?? []), ms]);
    cpuTimes.set(name, [...(cpuTimes.get(name) ?? []), (used.user + used.system) / 1000]);
    sizes.set(name, bytes);
  }
}
const baseWav = median(times.get('WAV 16-bit 44.1 kHz')!);
const baseWavCpu = median(cpuTimes.get('WAV 16-bit 44.1 kHz')!);
console.log(`\nformat               | encode s per audio minute, wall | CPU (median of ${rounds}) | MB per minute`);
console.log('-------------------- | ------------------------------- | ------------------- | -------------');
for (const name of [...Object.keys(CASES), ...Object.keys(FROM_WAV)]) {
  // The cases beyond the WAV include writing a WAV; subtract the 16-bit WAV's own time for them.
  const own = (value: number, wavPart: number) =>
    name.startsWith('WAV') || name in FROM_WAV ? value : Math.max(0, value - wavPart);
  const perMinute = (ms: number) => (ms / 1000 / (SECONDS / 60)).toFixed(2);
  console.log(
    `${name.padEnd(20)} | ${perMinute(own(median(times.get(name)!), baseWav)).padStart(31)} | ${perMinute(own(median(cpuTimes.get(name)!), baseWavCpu)).padStart(19)} | ${(sizes.get(name)! / 1e6 / (SECONDS / 60)).toFixed(2).padStart(13)}`,
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
