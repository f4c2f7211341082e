/**
 * Which of the lead's phones a recognizer hears, by class and pitch: a finer, steadier measure than word recall
 * (a lyric has ~40 words but ~130 phones, and no language model guesses them back). Sings bench/singer lyrics as
 * bench:singer --quick does (the lead alone, dry), then PocketSphinx in phone mode (its en-us acoustic model and
 * phone language model, from ../shared/tools/intelligibility's venv) decodes each, and a planned phone counts as
 * heard when the same phone is decoded overlapping its time (±30 ms; a stop's window starts at its closure).
 * A diagnostic for where words are lost (docs/songs.md "Phones heard"), not a recognizer to tune the singer to.
 *
 *   npm run bench:singer-phones [-- --only kitchen,more/phone] [-- --shift -5]   (--shift transposes the lead)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compose, interpret } from '../engine/index.ts';
import { phonemeTimeline, sing } from '../engine/render/singer/index.ts';
import { createRandom } from '../engine/random.ts';
import { encodeWav } from '../engine/encode/index.ts';

const run = promisify(execFile);
const HERE = new URL('.', import.meta.url).pathname;
const RATE = 44100;
/** The lyrics and requests of bench/singer.ts (its ten and its eight more). */
const TRACKS: [name: string, prompt: string, seed: number][] = [
  ['kitchen', 'a warm folk song with a female singer', 11],
  ['harbour', 'a sea shanty style folk song with a male singer', 12],
  ['train', 'an upbeat pop song with female vocals', 13],
  ['garden', 'a gentle acoustic ballad with a male singer', 14],
  ['letter', 'a sad soul song with a female singer', 15],
  ['dancing', 'a disco song with female vocals', 16],
  ['snow', 'a slow piano ballad with a male singer', 17],
  ['road', 'a country rock song with a male singer', 18],
  ['friend', 'a soft rock song with a male singer', 19],
  ['clock', 'a lazy jazz song with a female singer', 20],
  ['more/bakery', 'a cheerful pop song with a female singer', 31],
  ['more/river', 'a folk song with a male singer', 32],
  ['more/bicycle', 'an indie rock song with a male singer', 33],
  ['more/phone', 'a sad ballad with a female singer', 34],
  ['more/market', 'a reggae song with a male singer', 35],
  ['more/winter', 'a country song with a female singer', 36],
  ['more/city', 'a soul song with a male singer', 37],
  ['more/garden2', 'a gentle folk song with a female singer', 38],
];

const SCORER = `
import sys, os, json, subprocess, tempfile, collections
from pocketsphinx import Decoder, get_model_path
M = os.path.join(get_model_path(), 'en-us')
CLS = {**{p: 'stop' for p in 'P B T D K G CH JH'.split()}, **{p: 'fricative' for p in 'F V TH DH S Z SH ZH HH'.split()},
       **{p: 'nasal' for p in 'M N NG'.split()}, **{p: 'approximant' for p in 'L R W Y'.split()}}
def decode(path):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, 'a.raw')
        subprocess.run(['sox', '-D', path, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw], check=True)
        data = open(raw, 'rb').read()
    dec = Decoder(hmm=os.path.join(M, 'en-us'), allphone=os.path.join(M, 'en-us-phone.lm.bin'), beam=1e-20, pbeam=1e-20, lw=2.0, logfn=os.devnull)
    dec.start_utt(); dec.process_raw(data, full_utt=True); dec.end_utt()
    return [(s.word, s.start_frame / 100, (s.end_frame + 1) / 100) for s in dec.seg()]
for d in sys.argv[1:]:
    plan = json.load(open(os.path.join(d, 'timeline.json')))
    heard = decode(os.path.join(d, 'lead.wav'))
    counts = collections.defaultdict(lambda: [0, 0])
    for e in plan:
        if e['kind'] not in ('vowel', 'consonant'): continue
        cls = CLS.get(e['phone'], 'vowel')
        start = e['start'] - (0.04 if cls == 'stop' else 0)
        hit = any(h[0] == e['phone'] and h[1] < e['end'] + 0.03 and h[2] > start - 0.03 for h in heard)
        band = 'low' if e['midi'] < 62 else 'mid' if e['midi'] < 67 else 'high'
        for key in ('all', cls, 'all/' + band):
            counts[key][0] += hit; counts[key][1] += 1
    print(json.dumps({'dir': d, 'counts': counts}))
`;

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const only = option('--only')?.split(',');
const shift = Number(option('--shift') ?? 0);
const out = join(HERE, 'out/singer-phones', option('--label') ?? 'latest');
const python = join(homedir(), '.cache/tunesmith-intelligibility-venv/bin/python');
if (!existsSync(python)) throw new Error(`run ../shared/tools/intelligibility once first (it makes ${python})`);
const dirs: { name: string; gender: string; dir: string }[] = [];
for (const [name, prompt, seed] of TRACKS) {
  if (only && !only.includes(name)) continue;
  const lyrics = await readFile(join(HERE, 'singer', `${name}.txt`), 'utf8');
  const score = compose(interpret({ prompt, duration: 60, style: null, instrumental: false, lyrics, seed }));
  const vocal = score.vocal!;
  const notes = vocal.notes.map((note) => ({ ...note, midi: note.midi + shift }));
  const from = Math.max(0, notes[0]!.time - 0.5);
  const to = notes.at(-1)!.time + notes.at(-1)!.duration + 0.5;
  const voice = sing(notes, {
    gender: vocal.gender,
    sampleRate: RATE,
    frames: Math.ceil(to * RATE),
    random: createRandom(score.spec.seed, 'voice/lead'),
  });
  const dir = join(out, name);
  await mkdir(dir, { recursive: true });
  const lead = voice.subarray(Math.floor(from * RATE));
  await writeFile(join(dir, 'lead.wav'), encodeWav(lead, lead, RATE));
  const plan = phonemeTimeline(notes, vocal.gender).map((e) => ({ ...e, start: e.start - from, end: e.end - from }));
  await writeFile(join(dir, 'timeline.json'), JSON.stringify(plan));
  dirs.push({ name, gender: vocal.gender, dir });
}
const { stdout } = await run(python, ['-c', SCORER, ...dirs.map((d) => d.dir)], { maxBuffer: 1 << 24 });
const totals = new Map<string, Map<string, [number, number]>>();
const share = ([hit, count]: [number, number]) => `${(hit / Math.max(1, count)).toFixed(2)} (${count})`;
for (const [i, line] of stdout.trim().split('\n').entries()) {
  const { counts } = JSON.parse(line) as { counts: Record<string, [number, number]> };
  const { name, gender } = dirs[i]!;
  const total = totals.get(gender) ?? new Map<string, [number, number]>();
  totals.set(gender, total);
  for (const [key, [hit, count]] of Object.entries(counts)) {
    const sum = total.get(key) ?? [0, 0];
    total.set(key, [sum[0] + hit, sum[1] + count]);
  }
  console.log(`${name.padEnd(13)} ${gender.padEnd(6)} phones heard ${share(counts.all!)}`);
}
for (const [gender, total] of totals) {
  const keys = [...total.keys()].sort();
  console.log(`${gender}: ${keys.map((key) => `${key} ${share(total.get(key)!)}`).join('  ')}`);
}
console.log(`files in ${out}`);
