// Renders three tracks with Tunesmith's engine, no server: `node three-tracks.mjs [OUT_DIR]`.
// In another project: `npm install /path/to/tunesmith` (a checkout, or a tarball made by `npm pack`), then run this.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listStyles, renderTrack } from 'tunesmith/engine';

const out = process.argv[2] ?? 'tracks';
await mkdir(out, { recursive: true });
console.log(`Styles: ${listStyles().map((style) => style.name).join(', ')}`);

// The fields are POST /v1/generate's, with its defaults (60 s, a random seed, 44.1 kHz 16-bit WAV, inferred style).
const requests = [
  { prompt: 'a calm lofi beat with soft piano and rain', duration: 30, seed: 1, instrumental: true },
  { prompt: 'upbeat synthwave for a night drive', duration: 30, bpm: 110, key: 'A minor', seed: 2, formats: ['mp3'] },
  { prompt: 'a gentle waltz on strings', duration: 30, style: 'orchestral', time_signature: '3/4', seed: 3, formats: ['opus'] },
];

for (const [i, request] of requests.entries()) {
  const track = await renderTrack(request);
  const base = join(out, `${i + 1}-${track.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
  await writeFile(`${base}.wav`, track.wav);
  await writeFile(`${base}.mid`, track.midi);
  for (const format of ['mp3', 'opus', 'flac']) if (track[format]) await writeFile(`${base}.${format}`, track[format]);
  const { bpm, key, meter } = track.metadata;
  console.log(`${base}.wav: "${track.title}", ${track.duration} s, ${bpm} bpm, ${key}, ${meter}, seed ${track.seed}`);
}
