/**
 * The cheaper paths of the render give exactly what the plain ones gave: loudness measured over spans in place
 * equals the loudness of the spans copied out end to end, the compressor given one array twice (a mono voice)
 * equals either channel of it given two copies, the true-peak envelope is its plain form's and the true peak read
 * without an envelope equals the envelope's, the
 * limiter's ring buffers give what plain arrays gave, and a submix filtered and summed in one pass is what filtering,
 * then summing gave.
 */
import test from 'ava';
import { compress } from '../../engine/render/bus.ts';
import { integratedLoudness, masterInPlace, truePeakDb } from '../../engine/render/master/index.ts';
import { truePeakEnvelope } from '../../engine/render/master/true-peak.ts';
import { limitTruePeak } from '../../engine/render/master/limiter.ts';
import { filterStereo, groupChain } from '../../engine/render/groups.ts';
import { SAMPLE_RATE } from '../../engine/render/constants.ts';
import { to16, to24 } from '../../engine/encode/wav.ts';

/** Seeded noise whose level swells and fades every few seconds (a small LCG, not the engine's generator). */
function swelling(length: number, seed: number): Float32Array {
  const out = new Float32Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = (state / 2 ** 31 - 1) * (0.05 + 0.45 * Math.sin(i / 40000) ** 2);
  }
  return out;
}

function joined(channel: Float32Array, spans: readonly (readonly [number, number])[]): Float32Array {
  const out = new Float32Array(spans.reduce((sum, [a, b]) => sum + (b - a), 0));
  let at = 0;
  for (const [a, b] of spans) {
    out.set(channel.subarray(a, b), at);
    at += b - a;
  }
  return out;
}

test('loudness over spans is exactly the loudness of the spans joined end to end', (t) => {
  const left = swelling(20 * SAMPLE_RATE, 1),
    right = swelling(20 * SAMPLE_RATE, 2);
  // Spans shorter and longer than a 100 ms segment, not on segment boundaries.
  const spans = [
    [1234, 3000],
    [5000, 200_000],
    [200_100, 200_200],
    [300_001, 700_777],
    [800_000, 882_000],
  ] as const;
  const inPlace = integratedLoudness(left, right, SAMPLE_RATE, spans);
  t.true(Number.isFinite(inPlace));
  t.is(inPlace, integratedLoudness(joined(left, spans), joined(right, spans), SAMPLE_RATE));
  t.is(integratedLoudness(left, right, SAMPLE_RATE, [[0, left.length]]), integratedLoudness(left, right, SAMPLE_RATE));
});

test('the compressor given one array twice compresses it as it would two identical channels', (t) => {
  const options = { thresholdDb: -20, ratio: 3, kneeDb: 6, attack: 0.008, release: 0.15 };
  const mono = swelling(5 * SAMPLE_RATE, 3);
  const left = mono.slice(),
    right = mono.slice();
  compress(left, right, options);
  compress(mono, mono, options);
  t.deepEqual(mono, left);
  t.deepEqual(right, left);
});

test('the true peak is the largest value of the true-peak envelope, to the last bit', (t) => {
  const left = swelling(5 * SAMPLE_RATE, 4),
    right = swelling(5 * SAMPLE_RATE, 5);
  let samplePeak = 0;
  for (let k = 0; k < left.length; k++) samplePeak = Math.max(samplePeak, Math.abs(left[k]!), Math.abs(right[k]!));
  const envelope = truePeakEnvelope(left, right, samplePeak);
  t.is(truePeakDb(left, right), 20 * Math.log10(envelope.reduce((max, value) => Math.max(max, value), 0)));
});

/** The true-peak envelope as first written: each phase's kernel summed on its own, every sample read per interval. */
function plainEnvelope(left: Float32Array, right: Float32Array, level: number, gain: number): Float32Array {
  const kernels = [1, 2, 3].map((p) => {
    const kernel = Array.from({ length: 16 }, (_, t) => {
      const x = t - 8 + 1 - p / 4;
      return (
        (Math.sin(Math.PI * x) / (Math.PI * x)) *
        (0.42 + 0.5 * Math.cos((Math.PI * x) / 8) + 0.08 * Math.cos((2 * Math.PI * x) / 8))
      );
    });
    const sum = kernel.reduce((total, value) => total + value, 0);
    return kernel.map((value) => value / sum);
  });
  const interval = (channel: Float32Array, k: number) => {
    let peak = Math.abs(channel[k]!);
    const first = k - 7;
    if (first < 0 || first + 16 > channel.length) return Math.max(peak, Math.abs(channel[k + 1] ?? 0));
    for (const kernel of kernels) {
      let value = 0;
      for (let t = 0; t < 16; t++) value += kernel[t]! * channel[first + t]!;
      if (Math.abs(value) > peak) peak = Math.abs(value);
    }
    return peak;
  };
  const threshold = (level * 0.7) / gain;
  return left.map((_, k) => {
    const k1 = k + 1 < left.length ? k + 1 : k;
    const l = Math.max(Math.abs(left[k]!), Math.abs(left[k1]!));
    const r = Math.max(Math.abs(right[k]!), Math.abs(right[k1]!));
    return Math.max(l >= threshold ? interval(left, k) : l, r >= threshold ? interval(right, k) : r) * gain;
  });
}

test('the true-peak envelope is that of its plain form, to the last bit', (t) => {
  const left = swelling(3 * SAMPLE_RATE, 11),
    right = swelling(3 * SAMPLE_RATE, 12);
  t.deepEqual(truePeakEnvelope(left, right, 0.4, 1.3), plainEnvelope(left, right, 0.4, 1.3));
});

/** The limiter as first written: the envelope's running minimum and moving average over full-length arrays. */
function plainLimiter(left: Float32Array, right: Float32Array, ceiling: number, gain: number): Float32Array {
  const n = left.length;
  const lookahead = Math.max(1, Math.round(0.002 * SAMPLE_RATE));
  const release = 1 - Math.exp(-1 / (0.08 * SAMPLE_RATE));
  const need = truePeakEnvelope(left, right, ceiling, gain).map((peak) => (peak > ceiling ? ceiling / peak : 1));
  const gains = new Float32Array(n);
  const released = new Float64Array(n);
  let state = 1;
  for (let i = 0; i < n; i++) {
    let minimum = Infinity;
    for (let k = i; k <= Math.min(n - 1, i + lookahead); k++) minimum = Math.min(minimum, need[k] ?? 0);
    state = Math.min(minimum, state + (1 - state) * release);
    released[i] = state;
  }
  const window = lookahead + 1;
  let sum = window;
  for (let i = 0; i < n; i++) {
    sum += (released[i] ?? 0) - (i >= window ? (released[i - window] ?? 0) : 1);
    gains[i] = (sum / window) * gain;
  }
  return gains;
}

test("the limiter's gains are those of its plain full-length form, to the last bit", (t) => {
  const left = swelling(6 * SAMPLE_RATE, 5),
    right = swelling(6 * SAMPLE_RATE, 6);
  const expected = plainLimiter(left, right, 0.5, 1.7);
  const gains = new Float32Array(left.length);
  limitTruePeak(left.slice(), right.slice(), 0.5, SAMPLE_RATE, 1.7, gains);
  t.true(
    gains.some((g) => g < 1.7 * 0.99),
    'the limiter worked',
  );
  t.deepEqual(gains, expected);
});

test('a submix filtered and summed in one pass equals it filtered, then summed and cleared, to the last bit', (t) => {
  // Harmony has three filters (a cascade, then one biquad), lead two (one cascade): both last-pass kinds.
  for (const group of ['harmony', 'lead'] as const) {
    const { filters } = groupChain(group, true);
    const submix = { left: swelling(3 * SAMPLE_RATE, 7), right: swelling(3 * SAMPLE_RATE, 8) };
    const bus = { left: swelling(3 * SAMPLE_RATE, 9), right: swelling(3 * SAMPLE_RATE, 10) };
    const expected = { left: bus.left.slice(), right: bus.right.slice() };
    const filtered = { left: submix.left.slice(), right: submix.right.slice() };
    filterStereo(filtered, filters);
    for (let i = 0; i < expected.left.length; i++) {
      expected.left[i] = (expected.left[i] ?? 0) + (filtered.left[i] ?? 0) * 1;
      expected.right[i] = (expected.right[i] ?? 0) + (filtered.right[i] ?? 0) * 1;
    }
    filterStereo(submix, filters, bus);
    t.deepEqual(bus, expected, group);
    t.true(submix.left.every((v) => v === 0) && submix.right.every((v) => v === 0), `${group}: the submix is emptied`);
  }
});

test('samples round to 16 and 24 bits as Math.round rounds them, halves and clipping included', (t) => {
  const plain = (sample: number, scale: number) => Math.min(scale, Math.max(-scale - 1, Math.round(sample * scale)));
  const samples = [...swelling(200_000, 13)].map((value) => value * 2.5);
  // Samples that scale to a half exactly (or as near as a float32 gets), either side of zero, and the extremes.
  for (const scale of [32767, 8388607])
    for (let k = -40_000; k <= 40_000; k += 7) samples.push(Math.fround((k + 0.5) / scale), Math.fround(k / scale));
  samples.push(0, -0, 1, -1, 1.5, -1.5, 2 ** -140, -(2 ** -140), Math.fround(0.5 / 32767) * (1 - 2 ** -23));
  let bad = 0;
  for (const sample of samples) {
    if (to16(sample) !== plain(sample, 32767)) bad++;
    if (to24(sample) !== plain(sample, 8388607)) bad++;
  }
  t.is(bad, 0);
});

/**
 * Swelling noise, low-passed as music is band-limited (white noise's inter-sample peaks are not a music's), with a
 * hit five times as loud every half second (a drum over a pad): the limiter works hard. The estimate mastering had
 * before (a tenth of the highest peak's overshoot) left this 1.7 LU short of the target, and a second pass ran.
 */
function hits(length: number, seed: number): Float32Array {
  const out = swelling(length, seed);
  let y1 = 0,
    y2 = 0;
  for (let i = 0; i < length; i++) {
    y1 += 0.3 * ((out[i] ?? 0) - y1);
    y2 += 0.3 * (y1 - y2);
    out[i] = 2 * y2;
  }
  const hit = Math.round(0.02 * SAMPLE_RATE);
  for (let start = 0; start < length; start += SAMPLE_RATE / 2)
    for (let i = start; i < Math.min(length, start + hit); i++) out[i] = (out[i] ?? 0) * 5;
  return out;
}

test('mastering lands a hard-limited signal on its target in one pass and reports the finished master’s loudness, to the bit', (t) => {
  const left = hits(10 * SAMPLE_RATE, 5),
    right = hits(10 * SAMPLE_RATE, 6);
  const report = masterInPlace(left, right, SAMPLE_RATE);
  t.is(report.passes, 1, 'the first gain allows for what the limiter takes');
  t.true(Math.abs(report.loudness + 14) <= 0.5, String(report.loudness));
  t.is(report.loudness, integratedLoudness(left, right, SAMPLE_RATE));
});
