/**
 * The singer (engine/render/singer), judged on its audio by independent analysers: LPC formants for the vowels,
 * aubio's yinfft for pitch, our own band energies for consonants and vowel onsets.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { phonemeTimeline, sing, VOICE_RANGE, type PhonemeEvent } from '../../engine/render/singer/index.ts';
import { createRandom } from '../../engine/random.ts';
import { encodeWav } from '../../engine/encode/index.ts';
import type { SungNote } from '../../engine/types.ts';
import { formantsOf } from '../helpers/analysis/formants.ts';
import { aubioPitch } from '../helpers/analysis/pitch.ts';
import { bandShare, powerSpectrum } from '../helpers/analysis/bands.ts';
import { forEachSpectrum } from '../helpers/analysis/stft.ts';
import { sungLine, type SungNoteSpec } from '../helpers/analysis/sung-notes.ts';

const RATE = 44100;
type Gender = 'female' | 'male';
type Formants3 = [number, number, number];

let dir = '';
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tunesmith-voice-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

function render(notes: SungNote[], gender: Gender, seconds: number, seed = 7): Float32Array {
  return sing(notes, {
    gender,
    sampleRate: RATE,
    frames: Math.round(seconds * RATE),
    random: createRandom(seed, 'voice'),
  });
}

async function wavOf(name: string, audio: Float32Array): Promise<string> {
  const path = join(dir, `${name}.wav`);
  await writeFile(path, encodeWav(audio, audio, RATE));
  return path;
}

const slice = (audio: Float32Array, from: number, to: number) =>
  audio.subarray(Math.round(from * RATE), Math.round(to * RATE));

function rms(audio: Float32Array): number {
  let sum = 0;
  for (const x of audio) sum += x * x;
  return Math.sqrt(sum / Math.max(1, audio.length));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Peterson & Barney (1952) average F1/F2, Hz. */
const PETERSON_BARNEY: Record<Gender, Record<'AA' | 'IY' | 'UW', [number, number]>> = {
  male: { AA: [730, 1090], IY: [270, 2290], UW: [300, 870] },
  female: { AA: [850, 1220], IY: [310, 2790], UW: [370, 950] },
};
/** ~130 Hz and ~220 Hz. */
const SUSTAIN_MIDI: Record<Gender, number> = { male: 48, female: 57 };

for (const gender of ['male', 'female'] as const) {
  test(`sustained ${gender} /a/, /i/, /u/ have F1 and F2 within 15% of Peterson & Barney`, (t) => {
    for (const vowel of ['AA', 'IY', 'UW'] as const) {
      const audio = render(
        sungLine([{ time: 0.1, duration: 1, midi: SUSTAIN_MIDI[gender], nucleus: vowel }]),
        gender,
        1.3,
      );
      const [f1, f2] = formantsOf(slice(audio, 0.25, 1.05), RATE);
      const [e1, e2] = PETERSON_BARNEY[gender][vowel];
      t.log(`${vowel}: F1 ${f1.toFixed(0)} (P&B ${e1}), F2 ${f2.toFixed(0)} (P&B ${e2})`);
      t.true(Math.abs(f1 - e1) <= 0.15 * e1, `${vowel} F1 ${f1} vs ${e1}`);
      t.true(Math.abs(f2 - e2) <= 0.15 * e2, `${vowel} F2 ${f2} vs ${e2}`);
    }
  });
}

/** "Sunny skies above the town …": real syllables, consonant onsets and codas, slurs, long notes with vibrato. */
const MELODY: SungNoteSpec[] = [
  { time: 0.5, duration: 0.3, midi: 64, onset: 'S', nucleus: 'AH' },
  { time: 0.8, duration: 0.3, midi: 67, onset: 'N', nucleus: 'IY' },
  { time: 1.1, duration: 0.6, midi: 69, onset: 'S K', nucleus: 'AY', coda: 'Z', legato: true },
  { time: 1.7, duration: 0.35, midi: 67, nucleus: 'AH' },
  { time: 2.05, duration: 0.5, midi: 65, onset: 'B', nucleus: 'AH', coda: 'V' },
  { time: 2.6, duration: 0.3, midi: 64, onset: 'DH', nucleus: 'AH' },
  { time: 2.9, duration: 1.0, midi: 62, onset: 'T', nucleus: 'AW', coda: 'N' },
  { time: 4.4, duration: 0.3, midi: 64, onset: 'SH', nucleus: 'IY' },
  { time: 4.7, duration: 0.3, midi: 65, onset: 'K', nucleus: 'AE', coda: 'N' },
  { time: 5.0, duration: 0.6, midi: 67, onset: 'F', nucleus: 'IY', coda: 'L', legato: true },
  { time: 5.6, duration: 0.4, midi: 69, nucleus: 'IH', coda: 'T' },
  { time: 6.0, duration: 0.3, midi: 67, onset: 'P', nucleus: 'UW', coda: 'L' },
  { time: 6.3, duration: 0.3, midi: 65, onset: 'M', nucleus: 'AA' },
  { time: 6.6, duration: 1.2, midi: 64, onset: 'HH', nucleus: 'OW', coda: 'M' },
  { time: 8.2, duration: 0.4, midi: 60, onset: 'L', nucleus: 'EH', coda: 'T' },
  { time: 8.6, duration: 1.0, midi: 62, onset: 'G', nucleus: 'OW' },
];
const LINE_SECONDS = 10;

function melodyFor(gender: Gender): SungNote[] {
  const shift = gender === 'male' ? -12 : 0;
  return sungLine(MELODY.map((n) => ({ ...n, midi: n.midi + shift })));
}

const vowelsOf = (events: PhonemeEvent[]) => events.filter((e) => e.kind === 'vowel');

for (const gender of ['female', 'male'] as const) {
  test(`a ${gender} line is in tune by aubio yinfft: median error < 30 cents, 95% of notes within 50`, async (t) => {
    const notes = melodyFor(gender);
    const path = await wavOf(`line-${gender}`, render(notes, gender, LINE_SECONDS));
    const track = await aubioPitch(path);
    const vowels = vowelsOf(phonemeTimeline(notes, gender));
    t.is(vowels.length, notes.length);
    const errors = notes.map((note, i) => {
      // The vowel, less its first 50 ms (portamento, consonant transition) and last 30 ms (coda transition).
      const from = note.time + 0.05;
      const to = vowels[i]!.end - 0.03;
      const heard = track.filter((p) => p.time >= from && p.time <= to && p.midi > 0).map((p) => p.midi);
      t.true(heard.length > 3, `note ${i} has pitch frames`);
      return Math.abs(median(heard) - note.midi) * 100;
    });
    const sorted = [...errors].sort((a, b) => a - b);
    const within50 = errors.filter((e) => e < 50).length / errors.length;
    t.log(
      `cents: median ${median(errors).toFixed(1)}, max ${sorted[sorted.length - 1]!.toFixed(1)}, within 50: ${(within50 * 100).toFixed(0)}%`,
    );
    t.true(median(errors) < 30);
    t.true(within50 >= 0.95);
  });
}

/** Energy below 700 Hz (where voicing is and unvoiced consonants are not) per 1.45 ms hop. */
function lowBandEnvelope(audio: Float32Array): { time: number; energy: number }[] {
  const size = 256;
  const hop = 64;
  const out: { time: number; energy: number }[] = [];
  forEachSpectrum(audio, { size, hop }, (mag, f) => {
    let e = 0;
    for (let k = 1; k * (RATE / size) <= 700; k++) e += mag[k]! * mag[k]!;
    out.push({ time: (f * hop + size / 2) / RATE, energy: e });
  });
  return out;
}

test('vowel onsets after unvoiced consonants land within 20 ms of their notes', (t) => {
  const gender = 'female';
  const notes = melodyFor(gender);
  const envelope = lowBandEnvelope(render(notes, gender, LINE_SECONDS));
  const unvoiced = new Set(['S', 'SH', 'F', 'TH', 'P', 'T', 'K', 'HH']);
  let checked = 0;
  for (const note of notes) {
    const onset = note.syllable.onset;
    if (onset.length === 0 || !unvoiced.has(onset[onset.length - 1]!)) continue;
    // The vowel's level: median low-band energy over its first 100 ms after the onset settles.
    const level = median(
      envelope.filter((p) => p.time > note.time + 0.03 && p.time < note.time + 0.13).map((p) => p.energy),
    );
    // The consonant is the trough before the note; the vowel onset is the first rise out of it.
    const window = envelope.filter((p) => p.time > note.time - 0.1 && p.time < note.time + 0.01);
    const trough = window.reduce((min, p) => (p.energy < min.energy ? p : min));
    const rise = envelope.find((p) => p.time > trough.time && p.energy > 0.25 * level);
    t.truthy(rise, `note at ${note.time} has a vowel`);
    const error = (rise!.time - note.time) * 1000;
    t.log(
      `${onset.join(' ')}-${note.syllable.nucleus} at ${note.time}s: vowel onset ${error >= 0 ? '+' : ''}${error.toFixed(1)} ms`,
    );
    t.true(Math.abs(error) <= 20);
    checked++;
  }
  t.true(checked >= 6);
});

/**
 * One syllable sung after a vowel (so a stop has something to be silent after), returning audio and plan.
 * The phrase starts after a second of silence, so the synthesizer has been idle before it.
 */
function syllable(onset: string, gender: Gender = 'male') {
  const notes = sungLine([
    { time: 1.2, duration: 0.5, midi: 50, nucleus: 'AA', legato: true },
    { time: 1.7, duration: 0.5, midi: 50, onset, nucleus: 'AA' },
  ]);
  const events = phonemeTimeline(notes, gender);
  return { audio: render(notes, gender, 2.5), events };
}

const VOWEL_AFTER = [1.8, 2.0] as const;

/** Power spectrum of a short slice centred in 2048 zeros, where the Hann window is near 1 (bin k at k · RATE / 2048 Hz). */
function powerSpectrumOf(audio: Float32Array): Float64Array {
  const padded = new Float32Array(2048);
  const part = audio.subarray(0, 1024);
  padded.set(part, (2048 - part.length) >> 1);
  return powerSpectrum(padded, 2048);
}

const middleOf = (audio: Float32Array, e: PhonemeEvent, trim = 0.2) => {
  const pad = (e.end - e.start) * trim;
  return slice(audio, e.start + pad, e.end - pad);
};

test('/s/ is hiss above 4 kHz and /sh/ is lower, 2.5–5 kHz', (t) => {
  const s = syllable('S');
  const sh = syllable('SH');
  const sEvent = s.events.find((e) => e.phone === 'S')!;
  const shEvent = sh.events.find((e) => e.phone === 'SH')!;
  t.true(sEvent.end - sEvent.start >= 0.06 && sEvent.end - sEvent.start <= 0.1);
  const sHigh = bandShare(middleOf(s.audio, sEvent), RATE, 4000, 20000);
  const shMid = bandShare(middleOf(sh.audio, shEvent), RATE, 2500, 5000);
  const sMid = bandShare(middleOf(s.audio, sEvent), RATE, 2500, 5000);
  t.log(
    `/s/ above 4 kHz ${(sHigh * 100).toFixed(0)}%, 2.5–5 kHz ${(sMid * 100).toFixed(0)}%; /sh/ 2.5–5 kHz ${(shMid * 100).toFixed(0)}%`,
  );
  t.true(sHigh > 0.6);
  t.true(shMid > 0.5);
  t.true(shMid > sMid);
});

test('/f/ and /th/ are weak, diffuse hiss: at least 10 dB under /s/ and /sh/, their 1–8 kHz octaves within 10 dB of each other per Hz', (t) => {
  const level = (onset: string) => {
    const { audio, events } = syllable(onset);
    const middle = middleOf(audio, events.find((e) => e.phone === onset)!);
    return { db: 20 * Math.log10(rms(middle)), mid: bandShare(middle, RATE, 2500, 5000), middle };
  };
  const s = level('S');
  const sh = level('SH');
  for (const weak of ['F', 'TH']) {
    const { db, middle } = level(weak);
    // Diffuse: energy per Hz in the octaves 1–2, 2–4 and 4–8 kHz (the /s/ below is 20 dB apart there).
    const density = [1000, 2000, 4000].map((f) => bandShare(middle, RATE, f, 2 * f) / f);
    const spread = 10 * Math.log10(Math.max(...density) / Math.min(...density));
    const sSpread =
      10 * Math.log10(bandShare(s.middle, RATE, 4000, 8000) / 4000 / (bandShare(s.middle, RATE, 1000, 2000) / 1000));
    t.log(
      `/${weak.toLowerCase()}/ ${db.toFixed(1)} dB (/s/ ${s.db.toFixed(1)}, /sh/ ${sh.db.toFixed(1)}); octaves 1–8 kHz within ${spread.toFixed(1)} dB per Hz (/s/: ${sSpread.toFixed(1)} dB)`,
    );
    t.true(db < s.db - 10 && db < sh.db - 10);
    t.true(spread < 10);
  }
});

/** Level per ms (10 ms RMS) of the signal after a 2nd-order RBJ filter: 'low' below `hz`, 'high' above it. */
function levelPerMs(audio: Float32Array, type: 'low' | 'high', hz: number): Float64Array {
  const w = (2 * Math.PI * hz) / RATE;
  const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const b = type === 'low' ? [(1 - cos) / 2, 1 - cos, (1 - cos) / 2] : [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
  const [b0, b1, b2] = b.map((x) => x / a0) as [number, number, number];
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  const hop = RATE / 1000;
  const out = new Float64Array(Math.floor(audio.length / hop));
  let x1 = 0,
    x2 = 0,
    y1 = 0,
    y2 = 0,
    power = 0;
  const smooth = Math.exp(-1 / (0.003 * RATE));
  for (let i = 0; i < audio.length; i++) {
    const x = audio[i]!;
    const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    power = y * y + smooth * (power - y * y);
    const k = Math.floor(i / hop);
    if (k < out.length) out[k] = Math.sqrt(power);
  }
  return out;
}

/**
 * A stop between two /a/ notes, measured on the audio alone: the closure is the quietest ms before the note,
 * the burst the first ms after it where the highs (> 1 kHz) rise 20 dB over their level there, the voice onset the
 * first ms after the burst where the lows (< 400 Hz) reach half their level in the vowel. Returns seconds.
 */
function stopTiming(onset: string) {
  const { audio } = syllable(onset);
  const high = levelPerMs(audio, 'high', 1000);
  const low = levelPerMs(audio, 'low', 400);
  const note = 1700;
  let closure = note - 150;
  for (let k = closure; k < note; k++) if (high[k]! + low[k]! < high[closure]! + low[closure]!) closure = k;
  let burst = closure;
  while (burst < note + 50 && high[burst]! < 10 * high[closure]!) burst++;
  const vowelLow = median(Array.from(low.subarray(note + 60, note + 200)));
  let voice = burst;
  while (voice < note + 100 && low[voice]! < vowelLow / 2) voice++;
  const vowelRms = rms(slice(audio, ...VOWEL_AFTER));
  return {
    audio,
    closureDepthDb: 20 * Math.log10(rms(slice(audio, (closure - 3) / 1000, (closure + 3) / 1000)) / vowelRms),
    burst: burst / 1000,
    voiceOnset: voice / 1000,
    vot: (voice - burst) / 1000,
  };
}

test('stops are a closure, a burst, then the voice: /p t k/ aspirated (VOT 25–80 ms), /b d g/ voiced at once (< 25 ms)', (t) => {
  const centroids: Record<string, number> = {};
  for (const stop of ['P', 'T', 'K', 'B', 'D', 'G']) {
    const { audio, closureDepthDb, burst, voiceOnset, vot } = stopTiming(stop);
    // The burst's spectral centroid over its first 10 ms: /p/ low, /k/ mid, /t/ high.
    const power = powerSpectrumOf(slice(audio, burst, burst + 0.01));
    let weighted = 0;
    let total = 0;
    power.forEach((p, k) => {
      weighted += p * k * (RATE / 2048);
      total += p;
    });
    centroids[stop] = weighted / total;
    t.log(
      `/${stop.toLowerCase()}/: closure ${closureDepthDb.toFixed(1)} dB under the vowel, burst at ${(burst * 1000).toFixed(0)} ms (note at 1700), voice at ${(voiceOnset * 1000).toFixed(0)}: VOT ${(vot * 1000).toFixed(0)} ms, burst centroid ${centroids[stop]!.toFixed(0)} Hz`,
    );
    t.true(closureDepthDb < -20, `/${stop}/ closure`);
    t.true(burst > 1.6 && burst < 1.7, `/${stop}/ burst before the note`);
    if ('PTK'.includes(stop)) t.true(vot >= 0.025 && vot <= 0.08, `/${stop}/ VOT ${vot}`);
    else t.true(vot < 0.025, `/${stop}/ VOT ${vot}`);
    t.true(Math.abs(voiceOnset - 1.7) < 0.02, `/${stop}/: the vowel starts on the note`);
  }
  t.true(centroids.P! < centroids.K! && centroids.K! < centroids.T!, 'burst spectra: /p/ low, /k/ mid, /t/ high');
});

test('formants move from the consonant into the vowel over its first 40–80 ms, as in speech: LPC F2 10 ms into /bi/ and /wi/ ≥ 300 Hz under, into /da/ and /ga/ ≥ 150 Hz over, the F2 of the vowel at 150 ms; within 5% of it by 80 ms', (t) => {
  const f2 = (onset: string, nucleus: string) => {
    const notes = sungLine([
      { time: 1.2, duration: 0.5, midi: 50, nucleus: 'AA', legato: true },
      { time: 1.7, duration: 0.5, midi: 50, onset, nucleus },
    ]);
    const audio = render(notes, 'male', 2.5);
    // One 25 ms LPC frame centred `ms` after the vowel's onset.
    return (ms: number) =>
      formantsOf(slice(audio, 1.7 + ms / 1000 - 0.015, 1.7 + ms / 1000 + 0.015), RATE, { frame: 0.025 })[1];
  };
  for (const [onset, nucleus, direction] of [
    ['B', 'IY', -1],
    ['W', 'IY', -1],
    ['D', 'AA', 1],
    ['G', 'AA', 1],
  ] as const) {
    const at = f2(onset, nucleus);
    const [start, settled, steady] = [at(10), at(80), at(150)];
    t.log(
      `/${onset} ${nucleus}/: F2 ${start.toFixed(0)} Hz at 10 ms, ${settled.toFixed(0)} at 80 ms, ${steady.toFixed(0)} at 150 ms`,
    );
    t.true((start - steady) * direction >= (direction < 0 ? 300 : 150), `/${onset} ${nucleus}/ starts at its vowel`);
    t.true(Math.abs(settled - steady) <= 0.05 * steady, `/${onset} ${nucleus}/ has not reached its vowel by 80 ms`);
  }
});

test('a phrase after a rest starts with a soft, audible breath', (t) => {
  for (const gender of ['male', 'female'] as const) {
    const notes = sungLine([{ time: 1, duration: 0.6, midi: SUSTAIN_MIDI[gender], nucleus: 'AA' }]);
    const audio = render(notes, gender, 2);
    const breath = phonemeTimeline(notes, gender).find((e) => e.kind === 'breath');
    t.truthy(breath, 'a breath is planned');
    t.true(breath!.end < 1 && breath!.end - breath!.start >= 0.15);
    const level =
      20 * Math.log10(rms(slice(audio, breath!.start + 0.08, breath!.end - 0.04)) / rms(slice(audio, 1.1, 1.5)));
    const noisy = bandShare(slice(audio, breath!.start + 0.08, breath!.end - 0.04), RATE, 1000, 8000);
    t.log(`${gender}: breath ${level.toFixed(1)} dB under the vowel, ${(noisy * 100).toFixed(0)}% of it 1–8 kHz`);
    t.true(level > -40 && level < -18);
    t.true(noisy > 0.3, 'breath noise, not a hum');
  }
});

test('diphthongs move: LPC F2 of /ai/ rises ≥ 400 Hz from the start of the vowel to its end, /ei/ ≥ 200 Hz, /au/ falls ≥ 200 Hz', (t) => {
  for (const gender of ['male', 'female'] as const) {
    for (const [nucleus, direction, move] of [
      ['AY', 1, 400],
      ['EY', 1, 200],
      ['AW', -1, 200],
    ] as const) {
      const audio = render(sungLine([{ time: 0.3, duration: 0.8, midi: SUSTAIN_MIDI[gender], nucleus }]), gender, 1.4);
      const f2At = (from: number) => formantsOf(slice(audio, from, from + 0.1), RATE)[1];
      const [start, end] = [f2At(0.35), f2At(0.95)];
      t.log(`${gender} /${nucleus}/: F2 ${start.toFixed(0)} Hz at the start, ${end.toFixed(0)} at the end`);
      t.true((end - start) * direction >= move, `${gender} ${nucleus} F2 ${start} -> ${end}`);
    }
  }
});

test('liquids and glides are formant movements: /r/ lowers F3 under 2 kHz, /l/ keeps it high, /j/ raises F2 over /w/ by 1 kHz', (t) => {
  const formantsIn = (onset: string) => {
    const notes = sungLine([
      { time: 1.2, duration: 0.5, midi: 50, nucleus: 'AA', legato: true },
      { time: 1.7, duration: 0.5, midi: 50, onset, nucleus: 'AA' },
    ]);
    const audio = render(notes, 'male', 2.5);
    const c = phonemeTimeline(notes, 'male').find((e) => e.phone === onset)!;
    // The consonant's own stretch: its middle 30 ms, clear of the glides into and out of it.
    const mid = (c.start + c.end) / 2;
    return formantsOf(slice(audio, mid - 0.015, mid + 0.015), RATE, { frame: 0.025, order: 16 });
  };
  const [r, l, w, y] = ['R', 'L', 'W', 'Y'].map(formantsIn) as [Formants3, Formants3, Formants3, Formants3];
  t.log(
    `F2/F3: /r/ ${r[1]!.toFixed(0)}/${r[2]!.toFixed(0)}, /l/ ${l[1]!.toFixed(0)}/${l[2]!.toFixed(0)}, /w/ F2 ${w[1]!.toFixed(0)}, /j/ F2 ${y[1]!.toFixed(0)}`,
  );
  t.true(r[2]! < 2000, '/r/ F3 low');
  t.true(l[2]! > 2300, '/l/ F3 high');
  t.true(y[1]! - w[1]! >= 1000, '/j/ F2 over /w/');
});

test('words are parted and syllables are not: "morning | all | day" dips ≥ 30 dB for ≥ 30 ms between words, not inside "morning"', (t) => {
  // mor-ning (one word), all, day: the syllables of "morning" run together, the words do not.
  const words = [0, 0, 1, 2];
  const notes = sungLine([
    { time: 0.5, duration: 0.4, midi: 50, onset: 'M', nucleus: 'AO', coda: 'R' },
    { time: 0.9, duration: 0.4, midi: 52, onset: 'N', nucleus: 'IH', coda: 'NG' },
    { time: 1.3, duration: 0.4, midi: 53, nucleus: 'AO', coda: 'L' },
    { time: 1.7, duration: 0.6, midi: 52, onset: 'D', nucleus: 'EY' },
  ]).map((note, i) => ({ ...note, word: words[i]! }));
  const audio = render(notes, 'male', 2.6);
  const frame = 0.005;
  const levels: number[] = [];
  for (let t0 = 0; t0 + frame <= 2.6; t0 += frame)
    levels.push(20 * Math.log10(rms(slice(audio, t0, t0 + frame)) + 1e-9));
  const loudest = Math.max(...levels);
  // The longest run of frames 30 dB under the loudest between two times.
  const quietRun = (from: number, to: number) => {
    let best = 0;
    let run = 0;
    for (let i = Math.round(from / frame); i < Math.round(to / frame); i++) {
      run = levels[i]! < loudest - 30 ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best * frame;
  };
  const inside = quietRun(0.6, 1.1);
  const beforeAll = quietRun(1.0, 1.35);
  const beforeDay = quietRun(1.4, 1.75);
  t.log(
    `quiet: inside "morning" ${(inside * 1000).toFixed(0)} ms, before "all" ${(beforeAll * 1000).toFixed(0)} ms, before "day" ${(beforeDay * 1000).toFixed(0)} ms (a /d/ closure counts)`,
  );
  t.true(inside < 0.015, 'the syllables of one word run together');
  t.true(beforeAll >= 0.03, 'a vowel-initial word starts after a break');
  t.true(beforeDay >= 0.03, 'a consonant-initial word starts after a break');
});

/** Energy between lowHz and highHz of a power spectrum (bin k at k · RATE / size Hz), in dB. */
function bandDb(power: Float64Array, size: number, lowHz: number, highHz: number): number {
  let sum = 0;
  for (let k = 0; k < power.length; k++) {
    const f = (k * RATE) / size;
    if (f >= lowHz && f < highHz) sum += power[k]!;
  }
  return 10 * Math.log10(sum);
}

test("a man's voice has a singer's formant near 3 kHz and a woman's does not: on a held /a/ his 2.5–3.5 kHz band stands ≥ 10 dB over 3.5–4.5 kHz, within 30 dB of his band under 1.5 kHz and ≥ 6 dB nearer to it than hers", (t) => {
  const size = 4096;
  const ring = { male: 0, female: 0 };
  for (const gender of ['male', 'female'] as const) {
    const audio = render(
      sungLine([{ time: 0.1, duration: 1, midi: SUSTAIN_MIDI[gender], nucleus: 'AA' }]),
      gender,
      1.3,
    );
    const power = powerSpectrum(slice(audio, 0.25, 1.05), size);
    const ringing = bandDb(power, size, 2500, 3500);
    ring[gender] = ringing - bandDb(power, size, 50, 1500);
    const over = ringing - bandDb(power, size, 3500, 4500);
    t.log(
      `${gender} /a/: 2.5–3.5 kHz ${ring[gender].toFixed(1)} dB re < 1.5 kHz, ${over.toFixed(1)} dB over 3.5–4.5 kHz`,
    );
    if (gender === 'male') t.true(over >= 10, 'a peak, not a slope');
  }
  t.true(ring.male >= -30);
  t.true(ring.male - ring.female >= 6);
});

test('/m/ and /n/ are low-heavy murmurs with weak highs', (t) => {
  const db = (share: number) => (10 * Math.log10(share)).toFixed(1);
  for (const nasal of ['M', 'N']) {
    const { audio, events } = syllable(nasal);
    const murmur = middleOf(audio, events.find((e) => e.phone === nasal)!);
    const vowel = slice(audio, ...VOWEL_AFTER);
    const low = bandShare(murmur, RATE, 50, 500);
    const highNasal = bandShare(murmur, RATE, 1000, 20000);
    const highVowel = bandShare(vowel, RATE, 1000, 20000);
    t.log(
      `/${nasal.toLowerCase()}/: below 500 Hz ${(low * 100).toFixed(1)}%, above 1 kHz ${db(highNasal)} dB (vowel /a/ ${db(highVowel)} dB)`,
    );
    t.true(low > 0.7);
    t.true(highNasal < highVowel / 10, 'highs at least 10 dB weaker than in the vowel');
  }
});

test('portamento into a slurred note glides and is on pitch 45 ms after the onset; vibrato 5–7 Hz of ±20–60 cents on long notes only', async (t) => {
  const notes = sungLine([
    { time: 0.5, duration: 0.3, midi: 60, nucleus: 'AA', legato: true },
    { time: 0.8, duration: 1.4, midi: 67, nucleus: 'AA' },
  ]);
  const track = await aubioPitch(await wavOf('portamento', render(notes, 'female', 2.5)));
  const at = (from: number, to: number) =>
    track.filter((p) => p.time >= from && p.time < to && p.midi > 0).map((p) => p.midi);
  const settled = at(0.845, 0.95);
  t.true(
    settled.length > 5 && settled.every((m) => Math.abs(m - 67) < 0.35),
    `after the glide: ${settled.map((m) => m.toFixed(2))}`,
  );
  const between = at(0.75, 0.85).filter((m) => m > 60.5 && m < 66.5);
  t.true(between.length >= 2, 'passes through the pitches in between (a glide, not a jump)');
  // The first note starts a phrase, so it scoops up into its pitch over its first ~0.1 s, then holds it.
  t.true(
    at(0.62, 0.72).every((m) => Math.abs(m - 60) < 0.2),
    'the short note before it: steady, no vibrato',
  );

  const sustain = at(1.4, 2.1);
  const centre = median(sustain);
  const depth = ((Math.max(...sustain) - Math.min(...sustain)) / 2) * 100;
  let crossings = 0;
  for (let i = 1; i < sustain.length; i++) if (sustain[i - 1]! < centre !== sustain[i]! < centre) crossings++;
  const rate = crossings / 2 / 0.7;
  t.log(`vibrato ±${depth.toFixed(0)} cents at ${rate.toFixed(1)} Hz around ${centre.toFixed(2)}`);
  t.true(depth > 20 && depth < 60);
  t.true(rate > 5 && rate < 7);
  t.true(Math.abs(centre - 67) < 0.15, 'vibrato is centred on the note');
});

test('a phrase scoops up into its first note; a leap overshoots the new note and settles on it (Saitou et al. 2007)', async (t) => {
  const notes = sungLine([
    { time: 0.5, duration: 0.4, midi: 60, nucleus: 'AA' },
    { time: 0.9, duration: 0.4, midi: 65, onset: 'L', nucleus: 'AA' },
  ]);
  const track = await aubioPitch(await wavOf('gestures', render(notes, 'female', 1.8)));
  const at = (from: number, to: number) =>
    track.filter((p) => p.time >= from && p.time < to && p.midi > 0).map((p) => p.midi);
  const start = at(0.5, 0.54);
  t.log(`scoop: ${start.map((m) => m.toFixed(2))}; overshoot peak ${Math.max(...at(0.88, 1.05)).toFixed(2)}`);
  t.true(start.length > 0 && Math.min(...start) < 59.85, 'the phrase starts below its first note');
  t.true(Math.abs(median(at(0.65, 0.78)) - 60) < 0.15, 'and holds it');
  t.true(Math.max(...at(0.88, 1.05)) > 65.15, 'the leap overshoots');
  t.true(Math.max(...at(0.88, 1.05)) < 66, 'by a fraction of a semitone');
  t.true(Math.abs(median(at(1.05, 1.15)) - 65) < 0.15, 'then settles on the note');
});

test('a melisma carries the vowel on without onsets and moves the coda to its last note', (t) => {
  const notes = sungLine([
    { time: 0.5, duration: 0.4, midi: 64, onset: 'L', nucleus: 'AY', coda: 'T' },
    { time: 0.9, duration: 0.4, midi: 62, nucleus: 'AY', coda: 'T' },
  ]);
  notes[1] = { ...notes[1]!, continuation: true };
  const events = phonemeTimeline(notes, 'male');
  // (A stop's burst and aspiration are two events of one phone.)
  t.deepEqual(
    events
      .filter((e) => e.kind !== 'breath' && e.kind !== 'silence')
      .map((e) => `${e.phone}@${e.midi}`)
      .filter((e, i, all) => e !== all[i - 1]),
    ['L@64', 'AY@64', 'AY@62', 'T@62'],
  );
  const second = events.find((e) => e.kind === 'vowel' && e.midi === 62)!;
  t.is(second.start, 0.9);
});

test('the same seed sings the same samples; another seed differs', (t) => {
  const notes = melodyFor('female').slice(0, 6);
  const a = render(notes, 'female', 3, 11);
  const b = render(notes, 'female', 3, 11);
  const c = render(notes, 'female', 3, 12);
  t.deepEqual(a, b);
  t.notDeepEqual(a, c);
});

test('silence where no notes are, no NaN, peaks around −6 dBFS and below 1', (t) => {
  const notes = melodyFor('male');
  const audio = render(notes, 'male', 12);
  const events = phonemeTimeline(notes, 'male');
  const first = events[0]!.start;
  const last = events[events.length - 1]!.end;
  let peak = 0;
  audio.forEach((x, i) => {
    t.false(Number.isNaN(x));
    peak = Math.max(peak, Math.abs(x));
    const time = i / RATE;
    if (time < first - 0.01 || time > last + 0.1) t.is(x, 0, `sample at ${time.toFixed(3)} s`);
  });
  t.true(peak < 1);
  t.true(peak > 10 ** (-8 / 20) && peak < 10 ** (-4 / 20), `peak ${peak}`);
  t.true(rms(slice(audio, last + 0.1, 12)) === 0);
});

test('overlapping backing notes are sung by separate voices: every chord tone sounds', (t) => {
  const chord = [55, 59, 62];
  const notes = sungLine(chord.map((midi) => ({ time: 0.2, duration: 1.5, midi, nucleus: 'UW' })));
  const audio = slice(render(notes, 'female', 2), 0.5, 1.5);
  t.is(vowelsOf(phonemeTimeline(notes, 'female')).length, 3);
  for (const midi of chord) {
    const f = 440 * 2 ** ((midi - 69) / 12);
    // Energy within a quarter tone of the tone (its vibrato stays inside) against an equal band a semitone and
    // a half above it, where no chord tone is.
    const on = bandShare(audio, RATE, f * 2 ** (-0.5 / 12), f * 2 ** (0.5 / 12), 32768);
    const off = bandShare(audio, RATE, f * 2 ** (1 / 12), f * 2 ** (2 / 12), 32768);
    t.true(on > 5 * off, `tone ${midi}: ${on} vs ${off}`);
  }
});

test('the onset consonants come before the note and the vowel starts on it', (t) => {
  const notes = melodyFor('female');
  const events = phonemeTimeline(notes, 'female');
  for (const note of notes) {
    const vowel = events.find((e) => e.kind === 'vowel' && Math.abs(e.start - note.time) < 1e-9);
    t.truthy(vowel, `vowel on ${note.time}`);
    for (const phone of note.syllable.onset) {
      const consonant = events.find((e) => e.phone === phone && e.end <= note.time + 1e-9 && e.end > note.time - 0.2);
      t.truthy(consonant, `${phone} before ${note.time}`);
    }
  }
  t.true(VOICE_RANGE.male.low < VOICE_RANGE.female.low && VOICE_RANGE.male.high < VOICE_RANGE.female.high);
});

test('a 60 s line sings fast enough to render three times per track (logged, not asserted)', (t) => {
  const notes: SungNote[] = [];
  for (let rep = 0; rep < 6; rep++)
    for (const n of melodyFor('female')) notes.push({ ...n, time: n.time + rep * LINE_SECONDS });
  const times: number[] = [];
  let audio: Float32Array = new Float32Array(0);
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    audio = render(notes, 'female', 60);
    times.push(performance.now() - started);
  }
  t.log(
    `${notes.length} notes, 60 s: ${times.map((ms) => ms.toFixed(0)).join(', ')} ms (first run includes JIT warm-up)`,
  );
  t.is(audio.length, 60 * RATE);
});
