/**
 * Are the everyday styles heard as themselves (issue 28)? Renders each style's prompt, as a new user would write
 * it, with two seeds, and measures each WAV with tools that are not the engine: aubio's onset rate (onsets per
 * second and per beat), our percussive-hit counter, a sox spectrogram, and the listen tool's top tags.
 *
 *   npm run bench:styles [-- --styles funk,reggae --seeds 1,2 --out DIR --no-listen]
 *
 * The WAVs, spectrograms (DIR/NAME.png) and the table (DIR/figures.json) stay in DIR for listening.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { createRenderPool, type GenerationRequest } from '../engine/index.ts';
import { onsets, percussiveOnsetRate } from '../test/helpers/analysis/onsets.ts';

const execFileAsync = promisify(execFile);

const SECONDS = 30;
const LISTEN = '/work/shared/tools/listen/listen';

/** One prompt per style, worded as people ask for it. */
export const STYLE_PROMPTS: Record<string, string> = {
  hiphop: 'boom bap hip hop beat, 90 bpm',
  trap: 'dark trap beat with 808s, 140 bpm',
  funk: 'funk groove, 110 bpm',
  reggae: 'roots reggae song, 76 bpm',
  blues: 'blues shuffle, 96 bpm',
  afrobeat: 'afrobeat groove, 112 bpm',
  disco: 'disco track, 120 bpm',
  pop: 'upbeat pop song, 116 bpm',
};

interface Figures {
  name: string;
  prompt: string;
  seed: number;
  bpm: number;
  instruments: string;
  onsetsPerSecond: number;
  onsetsPerBeat: number;
  percussivePerSecond: number;
  tags?: string[];
  msd?: string[];
}

const { values } = parseArgs({
  options: {
    styles: { type: 'string' },
    seeds: { type: 'string', default: '1,2' },
    out: { type: 'string', default: '/tmp/tunesmith-styles' },
    'no-listen': { type: 'boolean', default: false },
  },
});
const styles = values.styles ? values.styles.split(',') : Object.keys(STYLE_PROMPTS);
const seeds = values.seeds.split(',').map(Number);
const out = values.out;
await mkdir(out, { recursive: true });

const pool = createRenderPool({ workers: 1 });
const figures: Figures[] = [];
try {
  for (const style of styles) {
    const prompt = STYLE_PROMPTS[style] ?? `${style} track`;
    for (const seed of seeds) {
      const request: GenerationRequest = { prompt, duration: SECONDS, style: null, instrumental: false, seed };
      const track = await pool.render(request);
      const name = `${style}-${seed}`;
      const path = join(out, `${name}.wav`);
      await writeFile(path, track.wav);
      await execFileAsync('sox', [
        path,
        '-n',
        'remix',
        '1,2',
        'spectrogram',
        '-x',
        '1200',
        '-y',
        '513',
        '-o',
        join(out, `${name}.png`),
      ]);
      const times = await onsets(path);
      const bpm = track.metadata.bpm;
      figures.push({
        name,
        prompt,
        seed,
        bpm,
        instruments: track.metadata.instruments.join(' '),
        onsetsPerSecond: times.length / SECONDS,
        onsetsPerBeat: times.length / ((SECONDS * bpm) / 60),
        percussivePerSecond: await percussiveOnsetRate(path),
      });
    }
  }
} finally {
  await pool.close();
}

if (!values['no-listen']) {
  const { stdout } = await execFileAsync(
    LISTEN,
    ['--json', '--top', '5', ...figures.map((f) => join(out, `${f.name}.wav`))],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const tagged = JSON.parse(stdout) as ({ file?: string } & Record<string, { top: [string, number][] }>)[];
  tagged.forEach((entry, i) => {
    const f = figures[i];
    if (!f) return;
    f.tags = (entry.MTT_musicnn?.top ?? []).map(([tag]) => tag);
    f.msd = (entry.MSD_musicnn?.top ?? []).map(([tag]) => tag);
  });
}

await writeFile(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
for (const f of figures) {
  console.log(
    `${f.name.padEnd(11)} ${String(f.bpm).padStart(3)} bpm  onsets ${f.onsetsPerSecond.toFixed(2)}/s ${f.onsetsPerBeat.toFixed(2)}/beat  perc ${f.percussivePerSecond.toFixed(2)}/s  ${f.tags ? `MTT: ${f.tags.join(', ')} | MSD: ${(f.msd ?? []).join(', ')}` : ''}`,
  );
  console.log(`            ${f.instruments}`);
}
