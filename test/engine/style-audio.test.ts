/**
 * The everyday styles' defining traits heard in the audio itself (issue 28), not read from the score: each part's
 * stem is measured with tools that are not the engine (aubio's onsets, sox's filters and levels). Three 30-second
 * renders, one per style, shared by the tests.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GenerationRequest, Role } from '../../engine/index.ts';
import { onsets } from '../helpers/analysis/onsets.ts';
import { parseSoxStats } from '../helpers/analysis/loudness.ts';
import { run } from '../helpers/analysis/exec.ts';
import { monoMix, readWav } from '../helpers/analysis/wav.ts';
import { createTrackRenderer, type TrackRenderer } from '../helpers/analysis/renders.ts';
import { glidesIn } from '../helpers/analysis/glides.ts';
import { synthDir } from '../helpers/analysis/synth.ts';
import { compose, interpret } from '../../engine/index.ts';
import { DRUM_MIDI } from '../../engine/types.ts';
import { powerSpectrum } from '../helpers/analysis/bands.ts';
import wavefile from 'wavefile';

const SECONDS = 30;
const request = (prompt: string, instrumental = true): GenerationRequest => ({
  prompt,
  duration: SECONDS,
  style: null,
  instrumental,
  seed: 1,
  stems: true,
});

const TRACKS = {
  'boom bap': request('boom bap hip hop beat, 90 bpm'),
  reggae: request('roots reggae song, 76 bpm'),
  trap: request('dark trap beat with 808s, 140 bpm'),
  blues: request('blues shuffle, 96 bpm', false),
} satisfies Record<string, GenerationRequest>;

let renderer: TrackRenderer;
test.before(async () => {
  renderer = await createTrackRenderer({ prefix: 'tunesmith-style-audio-' });
});
test.after.always(async () => {
  await renderer?.close();
});

/** A role's stem of a track, written beside its WAV, and the track's tempo. */
async function stem(name: keyof typeof TRACKS, role: Role): Promise<{ path: string; bpm: number }> {
  const file = await renderer.render(name, TRACKS[name]);
  const found = file.track.stems?.find((s) => s.role === role);
  if (!found) throw new Error(`${name} has no ${role} stem`);
  const path = join(dirname(file.path), `${name.replace(/\W+/g, '_')}-${role}.wav`);
  await writeFile(path, found.wav);
  return { path, bpm: file.track.metadata.bpm };
}

/** RMS level (dB) of a stem, both channels mixed, after sox `effects` (a filter). */
async function levelDb(path: string, ...effects: string[]): Promise<number> {
  const { stderr } = await run('sox', [path, '-n', 'remix', '1,2', ...effects, 'stats']);
  return parseSoxStats(stderr).rmsDb;
}

/** RMS level (dB) of `mono` in each window of `seconds`, from the start. */
function windowLevels(mono: Float32Array, sampleRate: number, seconds: number): number[] {
  const size = Math.round(seconds * sampleRate);
  const levels: number[] = [];
  for (let start = 0; start + size <= mono.length; start += size) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += (mono[i] ?? 0) ** 2;
    levels.push(10 * Math.log10(sum / size + 1e-12));
  }
  return levels;
}

/** Runs of at least `length` onsets `gap` seconds apart (±15%), as the time of each run's last onset. */
function evenRuns(times: readonly number[], gap: number, length: number): number[] {
  const ends: number[] = [];
  let run = 1;
  for (let i = 1; i < times.length; i++) {
    const step = (times[i] ?? 0) - (times[i - 1] ?? 0);
    run = Math.abs(step - gap) < 0.15 * gap ? run + 1 : 1;
    if (run === length) ends.push(times[i] ?? 0);
  }
  return ends;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

test("boom bap: the sample loop is heard low-passed: its stem's band above 4 kHz sits more than 60 dB under its whole", async (t) => {
  const { path } = await stem('boom bap', 'chords');
  const whole = await levelDb(path);
  const high = await levelDb(path, 'sinc', '4000');
  t.log(`chords ${whole.toFixed(1)} dB, above 4 kHz ${high.toFixed(1)} dB`);
  // The same loop unfiltered measures 50 dB (seed 1), filtered 70.
  t.true(whole - high > 60, `${(whole - high).toFixed(1)} dB`);
});

/** The drum notes of a track's score, by drum: the times the tests below measure the audio at. */
function drumTimes(name: keyof typeof TRACKS, midi: number): number[] {
  const drums = compose(interpret(TRACKS[name])).parts.find((part) => part.role === 'drums');
  return (drums?.notes ?? []).filter((note) => note.midi === midi).map((note) => note.time);
}

/** Peak level (dB) of `mono` in the `seconds` after `time`. */
function peakDb(mono: Float32Array, sampleRate: number, time: number, seconds: number): number {
  let peak = 0;
  const start = Math.round(time * sampleRate);
  for (let i = start; i < start + Math.round(seconds * sampleRate); i++) peak = Math.max(peak, Math.abs(mono[i] ?? 0));
  return 20 * Math.log10(peak + 1e-9);
}

test('boom bap: the kick hits as hard as the snare cracks: their peaks on the drum stem within 1.5 dB, where the kit alone put the snare 4 dB over', async (t) => {
  const { path } = await stem('boom bap', 'drums');
  const audio = await readWav(path);
  const mono = monoMix(audio);
  const kicks = drumTimes('boom bap', DRUM_MIDI.kick);
  const snares = drumTimes('boom bap', DRUM_MIDI.snare);
  // Hits that fall alone, so each peak is one drum's (a hat may sound with either).
  const alone = (time: number, others: number[]) => others.every((other) => Math.abs(other - time) > 0.1);
  const kick = median(kicks.filter((k) => alone(k, snares)).map((k) => peakDb(mono, audio.sampleRate, k, 0.06)));
  const snare = median(snares.filter((s) => alone(s, kicks)).map((s) => peakDb(mono, audio.sampleRate, s, 0.06)));
  t.log(`kick ${kick.toFixed(1)} dB, snare ${snare.toFixed(1)} dB`);
  t.true(kick > snare - 1.5, `${(kick - snare).toFixed(1)} dB`);
});

test('boom bap: the closed hats are chopped short: 120 ms after a hat that falls alone, the stem above 5 kHz is 30 dB under its level at the hit', async (t) => {
  const { path } = await stem('boom bap', 'drums');
  const audio = await readWav(path);
  const mono = monoMix(audio);
  const others = [...drumTimes('boom bap', DRUM_MIDI.kick), ...drumTimes('boom bap', DRUM_MIDI.snare)];
  // Hats with no kick or snare ringing into them or struck within the measured 140 ms.
  const hats = drumTimes('boom bap', DRUM_MIDI.hat).filter((hat) =>
    others.every((o) => o < hat - 0.3 || o > hat + 0.15),
  );
  const size = 1024;
  const highDb = (time: number): number => {
    const start = Math.round(time * audio.sampleRate);
    const power = powerSpectrum(mono.subarray(start, start + size), size);
    let sum = 0;
    for (let k = Math.ceil((5000 * size) / audio.sampleRate); k < power.length; k++) sum += power[k] ?? 0;
    return 10 * Math.log10(sum + 1e-20);
  };
  const drops = hats.map((hat) => highDb(hat) - highDb(hat + 0.12));
  t.log(`${hats.length} hats alone, drop ${median(drops).toFixed(1)} dB (median)`);
  t.true(hats.length >= 4);
  // The room kit's hat rang about 0.3 s.
  t.true(median(drops) > 30, `${median(drops).toFixed(1)} dB`);
});

test('boom bap: a round bass: its stem 3 dB louder under 100 Hz than at 100–300 Hz, and the sample loop filtered out of the lows', async (t) => {
  // Energy by band from the test's own FFT (8192 points: 5 Hz bins, fine enough to split 100 Hz).
  const bandDb = async (path: string, low: number, high: number): Promise<number> => {
    const audio = await readWav(path);
    const size = 8192;
    const power = powerSpectrum(monoMix(audio), size);
    let sum = 0;
    for (let k = 0; k < power.length; k++) {
      const hz = (k * audio.sampleRate) / size;
      if (hz >= low && hz < high) sum += power[k] ?? 0;
    }
    return 10 * Math.log10(sum + 1e-20);
  };
  const bass = await stem('boom bap', 'bass');
  const low = await bandDb(bass.path, 20, 100);
  const upper = await bandDb(bass.path, 100, 300);
  t.log(`bass under 100 Hz ${low.toFixed(1)} dB, 100–300 Hz ${upper.toFixed(1)} dB`);
  t.true(low - upper > 3, `${(low - upper).toFixed(1)} dB`);
  const loop = await stem('boom bap', 'chords');
  const whole = await bandDb(loop.path, 20, 20000);
  const lows = await bandDb(loop.path, 20, 120);
  t.log(`sample loop ${whole.toFixed(1)} dB, under 120 Hz ${lows.toFixed(1)} dB`);
  t.true(whole - lows > 30, `${(whole - lows).toFixed(1)} dB`);
});

test('reggae: the skank is heard on beats 2 and 4: an onset there in most bars, and the stem 20 dB louder there than on 1 and 3', async (t) => {
  const { path, bpm } = await stem('reggae', 'chords');
  const beat = 60 / bpm;
  // The last bars hold the closing chord on the downbeat.
  const bars = Math.floor(SECONDS / (4 * beat)) - 2;
  const times = await onsets(path);
  const near = (at: number) => times.some((time) => Math.abs(time - at) < 0.08);
  let struck = 0;
  for (let bar = 1; bar < bars; bar++) if (near((4 * bar + 1) * beat) && near((4 * bar + 3) * beat)) struck++;
  t.log(`onsets on both 2 and 4 in ${struck} of ${bars - 1} bars`);
  t.true(struck >= 0.8 * (bars - 1));

  // Level in the 100 ms after each beat (the delay's echoes arrive later than that).
  const audio = await readWav(path);
  const mono = monoMix(audio);
  const window = Math.round(0.1 * audio.sampleRate);
  const levelAt = (seconds: number): number => {
    const start = Math.round(seconds * audio.sampleRate);
    let sum = 0;
    for (let i = start; i < start + window; i++) sum += (mono[i] ?? 0) ** 2;
    return 10 * Math.log10(sum / window + 1e-12);
  };
  const onBeats: number[] = [];
  const offBeats: number[] = [];
  for (let b = 4; b < bars * 4; b++) (b % 2 === 1 ? offBeats : onBeats).push(levelAt(b * beat));
  const difference = median(offBeats) - median(onBeats);
  t.log(`2 and 4 are ${difference.toFixed(1)} dB louder than 1 and 3`);
  t.true(difference > 20);
});

test("trap: the hat rolls are heard: the drum stem's onsets come 32nds or sixteenth triplets apart, as no straight groove does", async (t) => {
  const { path, bpm } = await stem('trap', 'drums');
  const times = await onsets(path);
  const beat = 60 / bpm;
  const gaps = times.slice(1).map((time, i) => time - (times[i] ?? 0));
  const within = (gap: number, step: number) => Math.abs(gap - step) < 0.1 * step;
  const thirtySeconds = gaps.filter((gap) => within(gap, beat / 8)).length;
  const triplets = gaps.filter((gap) => within(gap, beat / 6)).length;
  t.log(`${thirtySeconds} gaps of a 32nd, ${triplets} of a sixteenth triplet, of ${gaps.length}`);
  t.true(thirtySeconds + triplets >= 12);
});

test("reggae: the drummer's pickups are heard: runs of four sixteenths on the drum stem, which the one drop's eighth-note hats never play, lead into phrases", async (t) => {
  const { path, bpm } = await stem('reggae', 'drums');
  const runs = evenRuns(await onsets(path), 60 / bpm / 4, 4);
  t.log(`runs of four sixteenths ending at ${runs.map((r) => r.toFixed(2)).join(', ')} s`);
  // Seed 1 plays one pickup (15.6 s); without pickups the stem has none.
  t.true(runs.length >= 1);
});

test('reggae: the bass plays a riff, not a root on 1 and 3: a median of four onsets a bar, most bars with one off the beat', async (t) => {
  const { path, bpm } = await stem('reggae', 'bass');
  const beat = 60 / bpm;
  const times = await onsets(path);
  const first = times[0] ?? 0;
  const bars = Math.floor((SECONDS - first) / (4 * beat)) - 2;
  const perBar: number[] = [];
  let offBeat = 0;
  for (let bar = 0; bar < bars; bar++) {
    const inBar = times.filter(
      (time) => time >= first + (bar * 4 - 0.1) * beat && time < first + (bar * 4 + 3.9) * beat,
    );
    perBar.push(inBar.length);
    const off = inBar.some((time) => {
      const beats = (time - first) / beat;
      return Math.abs(beats - Math.round(beats)) > 0.2;
    });
    if (off) offBeat++;
  }
  t.log(`onsets a bar ${perBar.join(' ')}; ${offBeat} of ${bars} bars with an off-beat note`);
  // The root-and-fifth line it replaced played two a bar, both on the beat.
  t.true(median(perBar) >= 4);
  t.true(offBeat >= 0.7 * bars);
});

test('blues: the guitar answers the singer: it plays in the bars the voice leaves free and rests under the sung phrases', async (t) => {
  const vocal = await stem('blues', 'vocal');
  const lead = await stem('blues', 'lead');
  const bar = (4 * 60) / vocal.bpm;
  const half = bar / 2;
  const levels = async (path: string) => {
    const audio = await readWav(path);
    return windowLevels(monoMix(audio), audio.sampleRate, half);
  };
  const voice = await levels(vocal.path);
  const guitar = await levels(lead.path);
  const loud = (values: number[]) => {
    const peak = Math.max(...values);
    return values.map((value) => value > peak - 25);
  };
  const sung = loud(voice);
  const played = loud(guitar);
  let answers = 0;
  let overlaps = 0;
  sung.forEach((singing, i) => {
    if (played[i] && !singing) answers++;
    if (played[i] && singing) overlaps++;
  });
  t.log(
    `half-bars: ${sung.filter(Boolean).length} sung, ${answers} with the guitar alone, ${overlaps} with both (${sung.length} in all)`,
  );
  // Seed 1 sings two phrases of two bars, each answered by two bars of guitar.
  t.true(answers >= 6, `${answers} half-bars of guitar alone`);
  t.true(overlaps <= 2, `${overlaps} half-bars of guitar under the voice`);
});

/**
 * A synthetic 808 line, written as a WAV: notes of `NOTE_SECONDS` (partials as an 808's driven sine) whose
 * 0.12 s releases overlap the next note, as the mixer plays them. A note given a `from` pitch slides from it in
 * 90 ms, quickest at first, as the mixer's glide does; the others start on their pitch.
 */
const NOTE_SECONDS = 0.45;
async function bassLine(path: string, notes: { midi: number; from?: number }[]): Promise<string> {
  const rate = 44100;
  const partials = [1, 0.35, 0.2, 0.08, 0.04];
  const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
  const out = new Float32Array(Math.ceil((notes.length * NOTE_SECONDS + 0.5) * rate));
  const hold = Math.round(NOTE_SECONDS * rate),
    release = Math.round(0.12 * rate),
    glide = Math.round(0.09 * rate);
  notes.forEach(({ midi, from }, n) => {
    const start = Math.round(n * NOTE_SECONDS * rate);
    let phase = 0;
    for (let j = 0; j < hold + release; j++) {
      const away = from !== undefined && j < glide ? (1 - j / glide) ** 2 : 0;
      phase += (2 * Math.PI * hz(midi + ((from ?? midi) - midi) * away)) / rate;
      const tone = partials.reduce((sum, a, k) => sum + a * Math.sin((k + 1) * phase), 0);
      const envelope = Math.min(1, j / (0.008 * rate)) * (j >= hold ? (1 - (j - hold) / release) ** 2 : 1);
      out[start + j] = (out[start + j] ?? 0) + 0.3 * tone * envelope;
    }
  });
  const pcm = Int16Array.from(out, (x) => Math.round(x * 32767));
  const wav = new wavefile.WaveFile();
  wav.fromScratch(1, rate, '16', pcm);
  await writeFile(path, wav.toBuffer());
  return path;
}

test('the glide check hears an 808 slide and nothing else: none in a struck flat tone or in jumps, each octave and fifth slide', async (t) => {
  const dir = await synthDir('tunesmith-glides-');
  try {
    // Octaves and fifths up and down, at the pitches of a trap 808 (B0-G2) and an octave above.
    const pitches = [31, 31, 43, 31, 38, 31, 43, 36, 31, 31, 43, 34, 46, 34];
    for (const lift of [0, 12]) {
      const line = pitches.map((midi) => midi + lift);
      const moves = line.filter((midi, i) => i > 0 && Math.abs(midi - (line[i - 1] ?? midi)) >= 7).length;
      const flat = await glidesIn(
        await bassLine(
          dir.path(`flat-${lift}.wav`),
          line.map(() => ({ midi: 31 + lift })),
        ),
      );
      const jumps = await glidesIn(
        await bassLine(
          dir.path(`jumps-${lift}.wav`),
          line.map((midi) => ({ midi })),
        ),
      );
      const slides = await glidesIn(
        await bassLine(
          dir.path(`slides-${lift}.wav`),
          line.map((midi, i) => ({ midi, from: i > 0 ? line[i - 1] : undefined })),
        ),
      );
      t.log(
        `+${lift}: ${flat.glides.length} in the flat tone, ${jumps.glides.length} in the jumps, ${slides.glides.length} of ${moves} slides`,
      );
      t.is(flat.glides.length, 0);
      t.is(jumps.glides.length, 0);
      t.true(slides.glides.length >= moves / 2, `${slides.glides.length} of ${moves}`);
      // Each slide heard is one that was played: it ends on the note slid to.
      for (const glide of slides.glides)
        t.true(line.some((midi, i) => i > 0 && Math.abs(midi - glide.to) < 0.5 && line[i - 1] !== midi));
    }
  } finally {
    await dir.cleanup();
  }
});

test("trap: the 808's slides are heard in its bass stem, where the score slides it", async (t) => {
  const { path } = await stem('trap', 'bass');
  const { glides } = await glidesIn(path);
  const bass = compose(interpret(TRACKS.trap)).parts.find((part) => part.role === 'bass');
  const sliding = (bass?.notes ?? []).filter((note) => Math.abs(note.glide ?? 0) >= 7);
  const slid = sliding.map((note) => note.time);
  // The cycle check needs a few cycles between the pitches: a 90 ms slide down to D1 (37 Hz) passes in about
  // three, so only slides whose low end is G1 (49 Hz) or higher are counted as ones it must hear.
  const resolvable = sliding.filter((note) => Math.min(note.midi, note.midi + (note.glide ?? 0)) >= 31).length;
  const placed = glides.filter((glide) => slid.some((time) => Math.abs(time - glide.time) < 0.06));
  t.log(
    `${glides.length} slides heard (${placed.length} where the score slides), of ${slid.length} scored (${resolvable} from G1 up)`,
  );
  t.true(resolvable >= 2, `${resolvable} slides from G1 up`);
  t.true(glides.length >= resolvable * 0.6, `${glides.length} of ${resolvable}`);
  t.is(placed.length, glides.length);
});
