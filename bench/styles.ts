/**
 * Are the everyday styles heard as themselves (issue 28)? Renders each style's prompt, as a new user would write
 * it, with two seeds, and measures each WAV with tools that are not the engine: aubio's onset rate (onsets per
 * second and per beat), our percussive-hit counter, a sox spectrogram, and the listen tool's top tags.
 *
 *   npm run bench:styles [-- --styles funk,reggae --seeds 1,2 --out DIR --no-listen --rapped]
 *   npm run bench:styles [-- --prompt 'funk=a tight funk jam with slap bass' --prompt 'rock=…']
 *
 * --prompt NAME=PROMPT (repeatable) renders those prompts instead of the styles' own (a listener's own wording).
 *
 * With --rapped each track is also tagged with a spoken rap (espeak-ng, 230 words a minute, 3 dB under the
 * track) mixed over it (DIR/NAME-rapped.wav): the taggers hear hip hop in the voice, not in the beat.
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
  'hiphop-song': 'boom bap hip hop song, 90 bpm',
  trap: 'dark trap beat with 808s, 140 bpm',
  'trap-song': 'trap song with a rapper, 140 bpm',
  funk: 'funk groove, 110 bpm',
  reggae: 'roots reggae song, 76 bpm',
  blues: 'blues shuffle, 96 bpm',
  afrobeat: 'afrobeat groove, 112 bpm',
  disco: 'disco track, 120 bpm',
  pop: 'upbeat pop song, 116 bpm',
  // The styles changes to shared composing (form, drums) must not spoil.
  rock: 'rock song with electric guitars, 124 bpm',
  jazz: 'jazz trio, swing, 140 bpm',
  orchestral: 'epic orchestral theme',
  lofi: 'lofi hip hop beat to study to',
  folk: 'a folk song with acoustic guitar and a male singer',
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
  /** The same, tagged with a spoken rap over it (--rapped). */
  rappedTags?: string[];
  rappedMsd?: string[];
}

const { values } = parseArgs({
  options: {
    styles: { type: 'string' },
    seeds: { type: 'string', default: '1,2' },
    out: { type: 'string', default: '/tmp/tunesmith-styles' },
    'no-listen': { type: 'boolean', default: false },
    rapped: { type: 'boolean', default: false },
    prompt: { type: 'string', multiple: true },
  },
});
const own: Record<string, string> = Object.fromEntries(
  (values.prompt ?? []).map((entry) => {
    const [name, ...words] = entry.split('=');
    return [name, words.join('=')];
  }),
);
const styles = values.prompt ? Object.keys(own) : values.styles ? values.styles.split(',') : Object.keys(STYLE_PROMPTS);
const seeds = values.seeds.split(',').map(Number);
const out = values.out;
await mkdir(out, { recursive: true });

/** Sixteen seconds of a rap, spoken by espeak-ng: a reference voice, not the engine's. */
const RAP =
  'Yeah, check it, I came up from the block with a notebook full of rhymes, every line that I drop is a sign of the times, ' +
  'on the mic with the beat and the bass in the back, boom bap on the track, we never look back, yeah, uh, ' +
  'from the top to the bottom we rock it like that, every kid on the corner know where we at, ' +
  'bring the noise to the people, the rhythm and rhyme, one two, one two, it is showtime';

/** The track at `path` with the spoken rap mixed over it, 3 dB under, written to `rapped`. */
async function rapOver(path: string, rapped: string): Promise<void> {
  const speech = join(out, 'speech.wav');
  const fitted = join(out, 'speech-fitted.wav');
  await execFileAsync('espeak-ng', ['-v', 'en-us+m3', '-s', '230', '-p', '35', '-w', speech, RAP]);
  const { stdout: rate } = await execFileAsync('soxi', ['-r', path]);
  await execFileAsync('sox', [
    speech,
    '-r',
    rate.trim(),
    '-c',
    '2',
    fitted,
    'repeat',
    '2',
    'trim',
    '0',
    String(SECONDS),
  ]);
  await execFileAsync('sox', ['-m', '-v', '1', path, '-v', '0.7', fitted, rapped]);
}

const pool = createRenderPool({ workers: 1 });
const figures: Figures[] = [];
try {
  for (const style of styles) {
    const prompt = own[style] ?? STYLE_PROMPTS[style] ?? `${style} track`;
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
      if (values.rapped) await rapOver(path, join(out, `${name}-rapped.wav`));
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
  const files = figures.map((f) => join(out, `${f.name}.wav`));
  const rapped = values.rapped ? figures.map((f) => join(out, `${f.name}-rapped.wav`)) : [];
  const { stdout } = await execFileAsync(LISTEN, ['--json', '--top', '5', ...files, ...rapped], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const tagged = JSON.parse(stdout) as ({ file?: string } & Record<string, { top: [string, number][] }>)[];
  const top = (entry: (typeof tagged)[number] | undefined, model: string) =>
    (entry?.[model]?.top ?? []).map(([tag]) => tag);
  figures.forEach((f, i) => {
    f.tags = top(tagged[i], 'MTT_musicnn');
    f.msd = top(tagged[i], 'MSD_musicnn');
    if (!values.rapped) return;
    f.rappedTags = top(tagged[figures.length + i], 'MTT_musicnn');
    f.rappedMsd = top(tagged[figures.length + i], 'MSD_musicnn');
  });
}

await writeFile(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
for (const f of figures) {
  console.log(
    `${f.name.padEnd(11)} ${String(f.bpm).padStart(3)} bpm  onsets ${f.onsetsPerSecond.toFixed(2)}/s ${f.onsetsPerBeat.toFixed(2)}/beat  perc ${f.percussivePerSecond.toFixed(2)}/s  ${f.tags ? `MTT: ${f.tags.join(', ')} | MSD: ${(f.msd ?? []).join(', ')}` : ''}`,
  );
  console.log(`            ${f.instruments}`);
  if (f.rappedTags)
    console.log(`            rapped over: MTT: ${f.rappedTags.join(', ')} | MSD: ${(f.rappedMsd ?? []).join(', ')}`);
}
