/**
 * The formant synthesizer (after Klatt 1980 and Klatt & Klatt 1990), run sample by sample on one voice's plan:
 *
 *   KLGLOTT88 glottal pulse (jitter, shimmer, spectral tilt) + aspiration noise
 *     -> cascade: nasal pole, nasal zero, F5 … F1            (vowels, nasals, liquids, /h/)
 *   frication noise -> parallel: two band-passes (the main one twice, for steep skirts) + bypass (fricatives, bursts)
 *   + the source's highs above the cascade ("air")
 *   sum -> singer's-formant lift at 3 kHz
 *
 * Parameters are evaluated every CONTROL_FRAME samples (track.ts); amplitudes ramp per sample in between so
 * nothing clicks. The per-sample work is in renderBlock, which keeps every state in local variables.
 */
import type { Random } from '../../random.ts';
import { ASP, AV, B1, BYPASS, F1, FNZ, FRIC, GATE, NASAL_POLE, PARAM_COUNT, PF1, PF2, type Gender } from './phones.ts';
import type { VoicePlan } from './plan.ts';
import { PitchContour } from './pitch.ts';
import { antiResonator, bandPass, resonator } from './resonator.ts';
import { peaking } from '../filters.ts';
import { ParameterTrack } from './track.ts';

const CONTROL_FRAME = 64;
/** After this long with every source silent, the filters have rung out: skip the samples. */
const RING_OUT = 0.05;

interface SourceStyle {
  /** Open quotient of the glottal cycle. */
  openQuotient: number;
  /** One-pole low-pass coefficient on the pulse: more tilt = softer, darker voice. */
  tilt: number;
  /** Aspiration noise relative to the pulse, at ASP = 1. */
  breathiness: number;
  /** Jitter (period) and shimmer (amplitude) standard deviations per cycle. */
  jitter: number;
  shimmer: number;
  /**
   * The peaking lift at 3 kHz (dB) on top of the upper formants clustered there (phones.ts): the singer's formant
   * that carries a man's voice over a band (Sundberg). Sopranos and pop singers have none, and the lift made the
   * female voice harsh at 3 kHz (a music tagger heard less voice with it: docs/songs.md), so hers is 0.
   */
  singersFormantDb: number;
}

const SOURCE: Record<Gender, SourceStyle> = {
  male: { openQuotient: 0.55, tilt: 0.6, breathiness: 0.03, jitter: 0.003, shimmer: 0.03, singersFormantDb: 6 },
  female: { openQuotient: 0.65, tilt: 0.8, breathiness: 0.05, jitter: 0.003, shimmer: 0.03, singersFormantDb: 0 },
};
/**
 * A louder voice is a brighter one (its glottis closes faster): the source's tilt coefficient rises by this much
 * as the voicing amplitude falls from full to none, so soft notes and the quiet start of a vowel are darker.
 */
const SOFT_TILT = 0.2;
/** Level of the parallel (frication) branch against the cascade. */
const FRICATION_GAIN = 1;
/** The cascade has nothing above F5; real voices do. This much of the source's 5–11 kHz band is added back. */
const AIR_GAIN = 0.6;
/**
 * On a high note the harmonics are far apart, and a formant much narrower than their spacing lifts the one
 * harmonic it happens to sit on rather than shaping a vowel: which vowel is heard then depends on where the
 * harmonics fall (female vowels above F#4 were identified 56% by formant, against 92% lower down). From A3 to
 * E4 (HIGH_NOTES, Hz) F1 and F2 widen to this share of f0, and stay at it above (at A4, 264 Hz), as a glottis
 * open for more of each cycle also widens them in real voices.
 */
const HIGH_NOTE_BANDWIDTH = 0.6;
const HIGH_NOTES = [220, 330] as const;
const NASAL_ZERO_BANDWIDTH = 120;
const NASAL_POLE_BANDWIDTH = 100;
const SINGERS_FORMANT = { frequency: 3000, q: 1.4 } as const;

/** Slots of the per-frame coefficient buffer. */
const K_FORMANT = 0; // F1..F5 x [A, B, C]
const K_NASAL_POLE = 15;
const K_NASAL_ZERO = 18;
const K_BAND1 = 21; // [b0, a1, a2]
const K_BAND2 = 24;
const K_AIR = 27;
const K_EQ = 30; // [b0, b1, b2, a1, a2]
const K_GAIN1 = 35; // band gains and bypass
const K_GAIN2 = 36;
const K_BYPASS = 37;
const K_INC = 38; // f0 / sampleRate
const K_AV = 39; // amplitude targets at the end of the block
const K_ASP = 40;
const K_FRIC = 41;
const K_GATE = 42;
const K_TILT = 43; // the source's one-pole tilt coefficient
const K_COUNT = 44;

/** Slots of the synthesizer state carried from block to block. */
const S_PHASE = 0;
const S_JITTER = 1;
const S_SHIMMER = 2;
const S_AV = 3;
const S_ASP = 4;
const S_FRIC = 5;
const S_TILT = 6;
const S_NASAL = 7; // np1, np2, nz1, nz2
const S_FORMANT = 11; // F1..F5 x [y1, y2]
const S_NOISE = 21; // nx1, nx2, b11, b12, b21, b22
const S_AIR = 27; // ax1, ax2, ay1, ay2
const S_EQ = 31; // ex1, ex2, ey1, ey2
const S_SOFT = 35; // low-passed noise for the broadband share
const S_GATE = 36;
const S_NOISE_SEED = 37; // xorshift32 state of the noise source: never reset (a zero state would stay zero)
const S_SHARP = 38; // c11, c12: the second pass of noise band 1
const S_COUNT = 40;

/** Sings one voice's plan, adding into `out` (which covers 0 s … out.length / sampleRate). */
export function renderVoice(
  plan: VoicePlan,
  gender: Gender,
  sampleRate: number,
  random: Random,
  out: Float32Array,
): void {
  const firstSegment = plan.segments[0];
  const lastSegment = plan.segments[plan.segments.length - 1];
  if (!firstSegment || !lastSegment) return;
  const style = SOURCE[gender];
  const pitch = new PitchContour(plan.notes, random.fork('vibrato'));
  const track = new ParameterTrack(plan.segments);
  const cycle = random.fork('cycle');
  const params = new Float64Array(PARAM_COUNT);
  const k = new Float64Array(K_COUNT);
  const state = new Float64Array(S_COUNT);
  state[S_JITTER] = state[S_SHIMMER] = 1;
  // Noise is an inline xorshift32 seeded from the voice's stream: a call per sample would cost a fifth of the time.
  state[S_NOISE_SEED] = random.fork('noise').int(1, 0x7fffffff);
  resonator(NASAL_POLE, NASAL_POLE_BANDWIDTH, sampleRate, k, K_NASAL_POLE);
  bandPass(8000, 6000, sampleRate, k, K_AIR);
  k.set(peaking(SINGERS_FORMANT.frequency, SINGERS_FORMANT.q, style.singersFormantDb, sampleRate), K_EQ);

  const dt = 1 / sampleRate;
  const first = Math.max(0, Math.floor(firstSegment.start * sampleRate) - CONTROL_FRAME);
  const last = Math.min(out.length, Math.ceil((lastSegment.end + RING_OUT) * sampleRate));
  let quietSince = 0;
  const shape = new Float64Array(11); // F1..F5, B1..B5, FNZ last used: coefficients are recomputed only on change
  let lastF1 = -1;
  let lastB1 = -1;
  let lastB2 = -1;
  for (let frame = first; frame < last; frame += CONTROL_FRAME) {
    const t = frame * dt;
    const sounding = track.evaluate(t, params);
    if (sounding || (state[S_AV] ?? 0) + (state[S_ASP] ?? 0) + (state[S_FRIC] ?? 0) > 0) quietSince = t;
    if (t - quietSince > RING_OUT) {
      // Rung out: leave the output silent and start the next phrase from clean filter states.
      state.fill(0, S_TILT, S_NOISE_SEED);
      state.fill(0, S_SHARP, S_COUNT);
      continue;
    }
    const f0 = 440 * 2 ** ((pitch.midiAt(t) - 69) / 12);
    // Vowel modification for high notes: F1 is raised to stay above f0, as trained singers do.
    const f1 = Math.max(params[F1] ?? 0, f0 * 1.1);
    // High notes: F1 and F2 at least HIGH_NOTE_BANDWIDTH · f0 wide.
    const [low, high] = HIGH_NOTES;
    const wide = HIGH_NOTE_BANDWIDTH * f0 * Math.min(1, Math.max(0, (f0 - low) / (high - low)));
    const b1 = Math.max(params[B1] ?? 0, wide);
    const b2 = Math.max(params[B1 + 1] ?? 0, wide);
    if (f1 !== lastF1 || b1 !== lastB1) resonator(f1, b1, sampleRate, k, K_FORMANT);
    if (params[F1 + 1] !== shape[1] || b2 !== lastB2) resonator(params[F1 + 1] ?? 0, b2, sampleRate, k, K_FORMANT + 3);
    lastF1 = f1;
    lastB1 = b1;
    lastB2 = b2;
    for (let f = 2; f < 5; f++) {
      if (params[F1 + f] === shape[f] && params[B1 + f] === shape[5 + f]) continue;
      resonator(params[F1 + f] ?? 0, params[B1 + f] ?? 0, sampleRate, k, K_FORMANT + 3 * f);
    }
    const nasal = Math.abs((params[FNZ] ?? 0) - NASAL_POLE) > 1;
    if (nasal && params[FNZ] !== shape[10])
      antiResonator(params[FNZ] ?? 0, NASAL_ZERO_BANDWIDTH, sampleRate, k, K_NASAL_ZERO);
    if (nasal && Math.abs((shape[10] ?? 0) - NASAL_POLE) <= 1) {
      // Entering a nasal: the pole and zero start from equal (silent) histories, so they still cancel exactly.
      state.fill(0, S_NASAL, S_NASAL + 4);
    }
    for (let p = 0; p < 11; p++) shape[p] = params[p] ?? 0;
    const noisy = (params[FRIC] ?? 0) > 0 || (state[S_FRIC] ?? 0) > 0;
    if (noisy) {
      bandPass(params[PF1] ?? 0, params[PF1 + 1] ?? 0, sampleRate, k, K_BAND1);
      bandPass(params[PF2] ?? 0, params[PF2 + 1] ?? 0, sampleRate, k, K_BAND2);
    }
    k[K_GAIN1] = params[PF1 + 2] ?? 0;
    k[K_GAIN2] = params[PF2 + 2] ?? 0;
    k[K_BYPASS] = params[BYPASS] ?? 0;
    k[K_INC] = f0 * dt;
    k[K_AV] = params[AV] ?? 0;
    k[K_ASP] = (params[ASP] ?? 0) * style.breathiness;
    k[K_FRIC] = (params[FRIC] ?? 0) * FRICATION_GAIN;
    k[K_GATE] = params[GATE] ?? 0;
    k[K_TILT] = Math.min(0.95, style.tilt + SOFT_TILT * (1 - Math.min(1, params[AV] ?? 0)));
    renderBlock(out, frame, Math.min(frame + CONTROL_FRAME, last), k, state, style, cycle, nasal, noisy);
  }
}

/** The per-sample synthesizer over out[from, to): reads coefficients from `k`, carries filter state in `s`. */
function renderBlock(
  out: Float32Array,
  from: number,
  to: number,
  k: Float64Array,
  s: Float64Array,
  style: SourceStyle,
  cycle: Random,
  nasal: boolean,
  noisy: boolean,
): void {
  const a1 = k[0] ?? 0,
    b1 = k[1] ?? 0,
    c1 = k[2] ?? 0,
    a2 = k[3] ?? 0,
    b2 = k[4] ?? 0,
    c2 = k[5] ?? 0,
    a3 = k[6] ?? 0,
    b3 = k[7] ?? 0,
    c3 = k[8] ?? 0;
  const a4 = k[9] ?? 0,
    b4 = k[10] ?? 0,
    c4 = k[11] ?? 0,
    a5 = k[12] ?? 0,
    b5 = k[13] ?? 0,
    c5 = k[14] ?? 0;
  const pa = k[K_NASAL_POLE] ?? 0,
    pb = k[K_NASAL_POLE + 1] ?? 0,
    pc = k[K_NASAL_POLE + 2] ?? 0;
  const za = k[K_NASAL_ZERO] ?? 0,
    zb = k[K_NASAL_ZERO + 1] ?? 0,
    zc = k[K_NASAL_ZERO + 2] ?? 0;
  const q0 = k[K_BAND1] ?? 0,
    q1 = k[K_BAND1 + 1] ?? 0,
    q2 = k[K_BAND1 + 2] ?? 0;
  const u0 = k[K_BAND2] ?? 0,
    u1 = k[K_BAND2 + 1] ?? 0,
    u2 = k[K_BAND2 + 2] ?? 0;
  const w0 = k[K_AIR] ?? 0,
    w1 = k[K_AIR + 1] ?? 0,
    w2 = k[K_AIR + 2] ?? 0;
  const e0 = k[K_EQ] ?? 0,
    e1 = k[K_EQ + 1] ?? 0,
    e2 = k[K_EQ + 2] ?? 0,
    ea1 = k[K_EQ + 3] ?? 0,
    ea2 = k[K_EQ + 4] ?? 0;
  const g1 = k[K_GAIN1] ?? 0,
    g2 = k[K_GAIN2] ?? 0,
    bypass = k[K_BYPASS] ?? 0,
    inc = k[K_INC] ?? 0;
  const oq = style.openQuotient;
  const tiltGain = 1 - (k[K_TILT] ?? style.tilt);
  const steps = to - from;
  let seed = (s[S_NOISE_SEED] ?? 0) | 0;
  let soft = s[S_SOFT] ?? 0;
  let gate = s[S_GATE] ?? 0;
  const dGate = ((k[K_GATE] ?? 0) - gate) / steps;
  let phase = s[S_PHASE] ?? 0,
    jitter = s[S_JITTER] ?? 0,
    shimmer = s[S_SHIMMER] ?? 0;
  let av = s[S_AV] ?? 0,
    asp = s[S_ASP] ?? 0,
    fric = s[S_FRIC] ?? 0,
    tilt = s[S_TILT] ?? 0;
  const dAv = ((k[K_AV] ?? 0) - av) / steps,
    dAsp = ((k[K_ASP] ?? 0) - asp) / steps,
    dFric = ((k[K_FRIC] ?? 0) - fric) / steps;
  let np1 = s[S_NASAL] ?? 0,
    np2 = s[S_NASAL + 1] ?? 0,
    nz1 = s[S_NASAL + 2] ?? 0,
    nz2 = s[S_NASAL + 3] ?? 0;
  let r11 = s[S_FORMANT] ?? 0,
    r12 = s[S_FORMANT + 1] ?? 0,
    r21 = s[S_FORMANT + 2] ?? 0,
    r22 = s[S_FORMANT + 3] ?? 0;
  let r31 = s[S_FORMANT + 4] ?? 0,
    r32 = s[S_FORMANT + 5] ?? 0,
    r41 = s[S_FORMANT + 6] ?? 0,
    r42 = s[S_FORMANT + 7] ?? 0;
  let r51 = s[S_FORMANT + 8] ?? 0,
    r52 = s[S_FORMANT + 9] ?? 0;
  let nx1 = s[S_NOISE] ?? 0,
    nx2 = s[S_NOISE + 1] ?? 0,
    b11 = s[S_NOISE + 2] ?? 0,
    b12 = s[S_NOISE + 3] ?? 0,
    b21 = s[S_NOISE + 4] ?? 0,
    b22 = s[S_NOISE + 5] ?? 0,
    c11 = s[S_SHARP] ?? 0,
    c12 = s[S_SHARP + 1] ?? 0;
  let ax1 = s[S_AIR] ?? 0,
    ax2 = s[S_AIR + 1] ?? 0,
    ay1 = s[S_AIR + 2] ?? 0,
    ay2 = s[S_AIR + 3] ?? 0;
  let ex1 = s[S_EQ] ?? 0,
    ex2 = s[S_EQ + 1] ?? 0,
    ey1 = s[S_EQ + 2] ?? 0,
    ey2 = s[S_EQ + 3] ?? 0;

  for (let i = from; i < to; i++) {
    av += dAv;
    asp += dAsp;
    fric += dFric;
    gate += dGate;
    const step = inc * jitter;
    phase += step;
    if (phase >= 1) {
      phase -= 1;
      jitter = 1 + style.jitter * cycle.gaussian();
      shimmer = 1 + style.shimmer * cycle.gaussian();
    }
    // KLGLOTT88 flow derivative over the open phase: 2x - 3x^2, ending in the abrupt closure that excites the tract.
    let pulse = 0;
    const open = phase < oq;
    if (open) {
      const x = phase / oq;
      pulse = x * (2 - 3 * x);
      // PolyBLEP: a band-limited version of the closure step (the pulse jumps from -1 to 0), against aliasing.
      const before = (phase - oq) / step;
      if (before > -1) pulse += 0.5 * (before + 1) * (before + 1);
    } else {
      const after = (phase - oq) / step;
      if (after < 1) pulse -= 0.5 * (1 - after) * (1 - after);
    }
    tilt += tiltGain * (pulse * av * shimmer - tilt);
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const n = seed * 4.656612873077393e-10; // / 2^31: uniform in [-1, 1)
    // Aspiration is stronger while the glottis is open (Klatt & Klatt 1990 modulate it by the cycle).
    let v = tilt + asp * n * (open ? 1 : 0.5);
    if (nasal) {
      const p = pa * v + pb * np1 + pc * np2;
      np2 = np1;
      np1 = p;
      v = za * p + zb * nz1 + zc * nz2;
      nz2 = nz1;
      nz1 = p;
    }
    v = a5 * v + b5 * r51 + c5 * r52;
    r52 = r51;
    r51 = v;
    v = a4 * v + b4 * r41 + c4 * r42;
    r42 = r41;
    r41 = v;
    v = a3 * v + b3 * r31 + c3 * r32;
    r32 = r31;
    r31 = v;
    v = a2 * v + b2 * r21 + c2 * r22;
    r22 = r21;
    r21 = v;
    v = a1 * v + b1 * r11 + c1 * r12;
    r12 = r11;
    r11 = v;
    v *= gate;
    if (noisy) {
      // Parallel branch: two band-passes of the same noise plus a broadband share. The main band is filtered
      // twice, so its skirts fall 12 dB/octave: /s/ is hiss above 4 kHz, not a broad noise down to 1 kHz.
      const band1 = q0 * (n - nx2) - q1 * b11 - q2 * b12;
      const sharp = q0 * (band1 - b12) - q1 * c11 - q2 * c12;
      b12 = b11;
      b11 = band1;
      c12 = c11;
      c11 = sharp;
      const band2 = u0 * (n - nx2) - u1 * b21 - u2 * b22;
      b22 = b21;
      b21 = band2;
      // The broadband share is low-passed (~8 kHz, one pole) so /f/ and /th/ are soft rather than white.
      soft += 0.68 * (n - soft);
      v += fric * (g1 * sharp + g2 * band2 + bypass * soft);
    }
    nx2 = nx1;
    nx1 = n;
    // Air: the source's own highs, which the five-formant cascade cuts off.
    const air = w0 * (tilt - ax2) - w1 * ay1 - w2 * ay2;
    ax2 = ax1;
    ax1 = tilt;
    ay2 = ay1;
    ay1 = air;
    v += AIR_GAIN * air * gate;
    const y = e0 * v + e1 * ex1 + e2 * ex2 - ea1 * ey1 - ea2 * ey2;
    ex2 = ex1;
    ex1 = v;
    ey2 = ey1;
    ey1 = y;
    out[i] = (out[i] ?? 0) + y;
  }
  s[S_NOISE_SEED] = seed;
  s[S_SOFT] = soft;
  s[S_GATE] = gate;
  s[S_PHASE] = phase;
  s[S_JITTER] = jitter;
  s[S_SHIMMER] = shimmer;
  s[S_AV] = av;
  s[S_ASP] = asp;
  s[S_FRIC] = fric;
  s[S_TILT] = tilt;
  s[S_NASAL] = np1;
  s[S_NASAL + 1] = np2;
  s[S_NASAL + 2] = nz1;
  s[S_NASAL + 3] = nz2;
  s[S_FORMANT] = r11;
  s[S_FORMANT + 1] = r12;
  s[S_FORMANT + 2] = r21;
  s[S_FORMANT + 3] = r22;
  s[S_FORMANT + 4] = r31;
  s[S_FORMANT + 5] = r32;
  s[S_FORMANT + 6] = r41;
  s[S_FORMANT + 7] = r42;
  s[S_FORMANT + 8] = r51;
  s[S_FORMANT + 9] = r52;
  s[S_NOISE] = nx1;
  s[S_NOISE + 1] = nx2;
  s[S_NOISE + 2] = b11;
  s[S_NOISE + 3] = b12;
  s[S_NOISE + 4] = b21;
  s[S_NOISE + 5] = b22;
  s[S_SHARP] = c11;
  s[S_SHARP + 1] = c12;
  s[S_AIR] = ax1;
  s[S_AIR + 1] = ax2;
  s[S_AIR + 2] = ay1;
  s[S_AIR + 3] = ay2;
  s[S_EQ] = ex1;
  s[S_EQ + 1] = ex2;
  s[S_EQ + 2] = ey1;
  s[S_EQ + 3] = ey2;
}
