/**
 * Can the singer's words be understood, and does it sound like a singer? Sings each lyric of bench/singer/ in a
 * 60 s track and asks independent listeners (issue 23):
 *   - PocketSphinx word recall (../shared/tools/intelligibility) on the dry lead voice and on the vocal stem,
 *     against eSpeak-NG *speaking* the same words (the scale: a robotic voice that is understood);
 *   - musicnn's strongest vocal tag (../shared/tools/listen) on the mix, and on a few instrumental renders.
 * With --speed it instead times sung against instrumental renders of the same requests, alternating.
 * Files go to bench/out/singer/LABEL/ (lyrics as sung, lead.wav, vocal.wav, mix.wav, spoken.wav, results.json).
 *
 *   npm run bench:singer [-- --label before --only kitchen,snow --no-listen]
 *   npm run bench:singer -- --quick   (the lead voice alone, sung without the band: recall only, for iterating)
 *   npm run bench:singer -- --quick --more   (eight more lyrics of bench/singer/more/ after the ten)
 *   npm run bench:singer -- --speed [--rounds 2]
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { compose, interpret, renderTrack, type GenerationRequest } from '../engine/index.ts';
import { renderScore } from '../engine/render/index.ts';
import { sing } from '../engine/render/singer/index.ts';
import { createRandom } from '../engine/random.ts';
import { encodeWav } from '../engine/encode/index.ts';

const run = promisify(execFile);
const HERE = new URL('.', import.meta.url).pathname;
/** The team's listening tools: ../shared/tools beside the checkout (or beside a parent of it, for worktrees). */
function toolsDir(): string {
  for (let dir = HERE; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared/tools/intelligibility'))) return join(dir, 'shared/tools');
  }
  throw new Error('bench:singer needs ../shared/tools (intelligibility, listen) beside the checkout');
}
const TOOLS = toolsDir();
const SAMPLE_RATE = 44100;

/** Each lyric with the request it is sung in: both genders, a spread of styles and tempos. */
const TRACKS = [
  { name: 'kitchen', prompt: 'a warm folk song with a female singer', seed: 11 },
  { name: 'harbour', prompt: 'a sea shanty style folk song with a male singer', seed: 12 },
  { name: 'train', prompt: 'an upbeat pop song with female vocals', seed: 13 },
  { name: 'garden', prompt: 'a gentle acoustic ballad with a male singer', seed: 14 },
  { name: 'letter', prompt: 'a sad soul song with a female singer', seed: 15 },
  { name: 'dancing', prompt: 'a disco song with female vocals', seed: 16 },
  { name: 'snow', prompt: 'a slow piano ballad with a male singer', seed: 17 },
  { name: 'road', prompt: 'a country rock song with a male singer', seed: 18 },
  { name: 'friend', prompt: 'a soft rock song with a male singer', seed: 19 },
  { name: 'clock', prompt: 'a lazy jazz song with a female singer', seed: 20 },
] as const;
/** Eight more lyrics (bench/singer/more/), sung with --more: the figures of docs/songs.md "Timing for words". */
const MORE = [
  { name: 'more/bakery', prompt: 'a cheerful pop song with a female singer', seed: 31 },
  { name: 'more/river', prompt: 'a folk song with a male singer', seed: 32 },
  { name: 'more/bicycle', prompt: 'an indie rock song with a male singer', seed: 33 },
  { name: 'more/phone', prompt: 'a sad ballad with a female singer', seed: 34 },
  { name: 'more/market', prompt: 'a reggae song with a male singer', seed: 35 },
  { name: 'more/winter', prompt: 'a country song with a female singer', seed: 36 },
  { name: 'more/city', prompt: 'a soul song with a male singer', seed: 37 },
  { name: 'more/garden2', prompt: 'a gentle folk song with a female singer', seed: 38 },
] as const;
/** Instrumental renders: musicnn should hear no voice in them. */
const INSTRUMENTAL = ['an upbeat pop song', 'a warm folk song', 'a disco song'];
/** musicnn labels (MTT and MSD) that say a voice is there. */
const VOCAL_TAGS = new Set([
  'vocal',
  'vocals',
  'singing',
  'voice',
  'female',
  'male',
  'woman',
  'man',
  'male vocal',
  'female vocal',
  'male voice',
  'female voice',
  'female vocalists',
  'male vocalists',
  'female vocalist',
]);

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

interface Recall {
  file: string;
  recall: number;
  wer: number;
  hyp: string;
}

async function recallOf(lyrics: string, wavs: string[]): Promise<Recall[]> {
  const { stdout } = await run(join(TOOLS, 'intelligibility/intelligibility'), [lyrics, ...wavs], {
    maxBuffer: 1 << 24,
  });
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Recall);
}

/** The strongest vocal tag (and which) musicnn gives each file. */
async function vocalTags(wavs: string[]): Promise<{ tag: string; p: number }[]> {
  const { stdout } = await run(join(TOOLS, 'listen/listen'), ['--json', ...wavs], { maxBuffer: 1 << 26 });
  const results = JSON.parse(stdout) as Record<string, { probs?: Record<string, number> }>[];
  return results.map((result) => {
    let best = { tag: '-', p: 0 };
    for (const model of Object.values(result)) {
      for (const [tag, p] of Object.entries(model?.probs ?? {}))
        if (VOCAL_TAGS.has(tag) && p > best.p) best = { tag, p };
    }
    return best;
  });
}

async function wav(path: string, left: Float32Array, right: Float32Array = left): Promise<string> {
  await writeFile(path, encodeWav(left, right, SAMPLE_RATE));
  return path;
}

async function sung(only: Set<string> | null, listen: boolean, quick: boolean, out: string): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  const mixes: string[] = [];
  for (const track of process.argv.includes('--more') ? [...TRACKS, ...MORE] : TRACKS) {
    if (only && !only.has(track.name)) continue;
    const dir = join(out, track.name);
    await mkdir(dir, { recursive: true });
    const lyrics = await readFile(join(HERE, 'singer', `${track.name}.txt`), 'utf8');
    const score = compose(
      interpret({ prompt: track.prompt, duration: 60, style: null, instrumental: false, lyrics, seed: track.seed }),
    );
    const started = performance.now();
    const audio = quick ? null : await renderScore(score, { voiceTaps: true, stems: true });
    const renderMs = performance.now() - started;
    // The reference is what was sung (every line of these lyrics fits a 60 s track; this checks it).
    const text = score.vocal!.lines.map((line) => line.text).join('\n');
    const sungText = join(dir, 'sung.txt');
    await writeFile(sungText, `${text}\n`);
    const spoken = join(dir, 'spoken.wav');
    await run('espeak-ng', ['-v', 'en-us', '-f', sungText, '-w', spoken]);
    let lead: Recall, vocal: Recall | undefined, robot: Recall;
    if (audio) {
      const stem = audio.stems!.find((s) => s.role === 'vocal')!;
      const files = [
        await wav(join(dir, 'lead.wav'), audio.taps!.lead),
        await wav(join(dir, 'vocal.wav'), stem.left, stem.right),
      ];
      mixes.push(await wav(join(dir, 'mix.wav'), audio.left, audio.right));
      [lead, vocal, robot] = (await recallOf(sungText, [...files, spoken])) as [Recall, Recall, Recall];
    } else {
      // Quick: the lead voice alone, sung as the mix would sing it, from its first note to its last.
      const notes = score.vocal!.notes;
      const from = Math.max(0, notes[0]!.time - 0.5);
      const to = notes.at(-1)!.time + notes.at(-1)!.duration + 0.5;
      const voice = sing(notes, {
        gender: score.vocal!.gender,
        sampleRate: SAMPLE_RATE,
        frames: Math.ceil(to * SAMPLE_RATE),
        random: createRandom(score.spec.seed, 'voice/lead'),
      });
      const file = await wav(join(dir, 'lead.wav'), voice.subarray(Math.floor(from * SAMPLE_RATE)));
      [lead, robot] = (await recallOf(sungText, [file, spoken])) as [Recall, Recall];
    }
    const lyricWords = lyrics.replace(/\[[^\]]*\]/g, ' ').match(/[a-z']+/gi)?.length ?? 0;
    const sungWords = text.match(/[a-z']+/gi)?.length ?? 0;
    const row = {
      name: track.name,
      gender: score.vocal!.gender,
      style: score.spec.genre,
      bpm: score.spec.bpm,
      sungWords: `${sungWords}/${lyricWords}`,
      lead: lead.recall,
      vocal: vocal?.recall ?? Number.NaN,
      espeak: robot.recall,
      renderS: Number((renderMs / 1000).toFixed(1)),
      heard: lead.hyp,
    };
    rows.push(row);
    console.log(
      `${row.name.padEnd(8)} ${row.gender.padEnd(6)} ${String(row.style).padEnd(10)} words ${row.sungWords.padEnd(6)} recall lead ${row.lead.toFixed(2)}  stem ${row.vocal.toFixed(2)}  eSpeak ${row.espeak.toFixed(2)}   heard: ${row.heard.slice(0, 90)}`,
    );
  }
  const mean = (key: string) => rows.reduce((s, r) => s + (r[key] as number), 0) / Math.max(1, rows.length);
  console.log(
    `mean recall: lead ${mean('lead').toFixed(3)}  stem ${mean('vocal').toFixed(3)}  eSpeak ${mean('espeak').toFixed(3)}`,
  );
  const summary: Record<string, unknown> = {
    rows,
    mean: { lead: mean('lead'), vocal: mean('vocal'), espeak: mean('espeak') },
  };
  if (listen && !quick) {
    const instrumental: string[] = [];
    for (const [i, prompt] of INSTRUMENTAL.entries()) {
      const score = compose(interpret({ prompt, duration: 60, style: null, instrumental: true, seed: 40 + i }));
      const audio = await renderScore(score);
      instrumental.push(await wav(join(out, `instrumental-${i}.wav`), audio.left, audio.right));
    }
    const tags = await vocalTags([...mixes, ...instrumental]);
    const sungTags = tags.slice(0, mixes.length);
    const instrumentalTags = tags.slice(mixes.length);
    sungTags.forEach((tag, i) => {
      const row = rows[i]!;
      row.vocalTag = tag;
      console.log(`${String(row.name).padEnd(8)} musicnn strongest vocal tag: ${tag.tag} ${tag.p.toFixed(3)}`);
    });
    for (const [i, tag] of instrumentalTags.entries()) {
      console.log(`instrumental "${INSTRUMENTAL[i]}": strongest vocal tag ${tag.tag} ${tag.p.toFixed(3)}`);
    }
    const meanTag = sungTags.reduce((s, t) => s + t.p, 0) / Math.max(1, sungTags.length);
    console.log(
      `musicnn vocal tag: sung mean ${meanTag.toFixed(3)} (min ${Math.min(...sungTags.map((t) => t.p)).toFixed(3)}), instrumental max ${Math.max(...instrumentalTags.map((t) => t.p)).toFixed(3)}`,
    );
    summary.instrumental = instrumentalTags;
    summary.meanVocalTag = meanTag;
  }
  await writeFile(join(out, 'results.json'), `${JSON.stringify(summary, null, 1)}\n`);
}

/** Wall and CPU milliseconds (all threads of this process) of one render. */
async function timed(request: GenerationRequest): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderTrack(request);
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/**
 * Sung against instrumental, the same requests, alternating so machine load hits both alike. CPU time is the
 * figure to trust on a shared machine: wall time moves with everyone else's load.
 */
async function speed(rounds: number): Promise<void> {
  await timed({ prompt: 'warm-up', duration: 5, style: 'pop', instrumental: false, seed: 1 });
  const prompts = ['an upbeat pop song with female vocals', 'a warm folk song with a male singer'];
  const totals = { sung: { wall: 0, cpu: 0 }, plain: { wall: 0, cpu: 0 } };
  for (let round = 0; round < rounds; round++) {
    for (const prompt of prompts) {
      const request = { prompt, duration: 60, style: null, seed: 100 + round };
      const plain = await timed({ ...request, instrumental: true });
      const sang = await timed({ ...request, instrumental: false });
      for (const key of ['wall', 'cpu'] as const) {
        totals.plain[key] += plain[key];
        totals.sung[key] += sang[key];
      }
      console.log(
        `  ${prompt.padEnd(40)} instrumental cpu ${(plain.cpu / 1000).toFixed(2)} s (wall ${(plain.wall / 1000).toFixed(2)} s)   sung cpu ${(sang.cpu / 1000).toFixed(2)} s (wall ${(sang.wall / 1000).toFixed(2)} s)   ${(sang.cpu / plain.cpu).toFixed(2)}× cpu`,
      );
    }
  }
  console.log(
    `  total: sung ${(totals.sung.cpu / totals.plain.cpu).toFixed(2)}× instrumental in CPU time, ${(totals.sung.wall / totals.plain.wall).toFixed(2)}× in wall time (target ≤ 1.5×)`,
  );
}

if (process.argv.includes('--speed')) {
  await speed(Number(option('--rounds') ?? 2));
} else {
  const label = option('--label') ?? 'latest';
  const only = option('--only');
  const out = join(HERE, 'out/singer', label);
  await mkdir(out, { recursive: true });
  await sung(
    only ? new Set(only.split(',')) : null,
    !process.argv.includes('--no-listen'),
    process.argv.includes('--quick'),
    out,
  );
  console.log(`files in ${out}`);
}
