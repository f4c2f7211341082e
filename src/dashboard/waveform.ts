/**
 * The waveform picture of a finished track: the WAV's peak level in a few hundred slices, drawn as a
 * symmetric SVG bar chart. Computed once per generation (its files never change) and kept in memory, as are
 * failures for a while.
 */
export const WAVEFORM_BARS = 160;
const CACHE_LIMIT = 500;
const WIDTH = 960;
const HEIGHT = 120;

/** How one sample is read: its size in bytes and its level 0–1 at a byte offset. */
interface SampleFormat {
  bytes: number;
  level: (view: DataView, at: number) => number;
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** A header longer than this is not a WAV we wrote (ours is 44 bytes). */
const MAX_HEADER = 64 * 1024;

function sampleFormat(format: number, bits: number): SampleFormat {
  if (format === WAVE_FORMAT_PCM) {
    if (bits === 8) return { bytes: 1, level: (v, at) => Math.abs(v.getUint8(at) - 128) / 128 };
    if (bits === 16) return { bytes: 2, level: (v, at) => Math.abs(v.getInt16(at, true)) / 32768 };
    if (bits === 24)
      return {
        bytes: 3,
        level: (v, at) => Math.abs((v.getInt8(at + 2) << 16) | (v.getUint8(at + 1) << 8) | v.getUint8(at)) / 8388608,
      };
    if (bits === 32) return { bytes: 4, level: (v, at) => Math.abs(v.getInt32(at, true)) / 2147483648 };
  }
  if (format === WAVE_FORMAT_FLOAT) {
    if (bits === 32) return { bytes: 4, level: (v, at) => Math.min(1, Math.abs(v.getFloat32(at, true))) };
    if (bits === 64) return { bytes: 8, level: (v, at) => Math.min(1, Math.abs(v.getFloat64(at, true))) };
  }
  throw new Error(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
}

/**
 * Per-slice peaks 0–1 of a WAV read chunk by chunk: PCM of 8, 16, 24 or 32 bits or float, any rate and channel
 * count. Only the header and a few bytes between chunks are kept, so a 3-minute 24-bit track is never held whole.
 */
export async function wavPeaksOf(chunks: AsyncIterable<Uint8Array>, bars = WAVEFORM_BARS): Promise<number[]> {
  let header: Uint8Array = new Uint8Array(0);
  let reader: PeakReader | undefined;
  for await (const chunk of chunks) {
    if (reader) {
      reader.push(chunk);
      continue;
    }
    header = concat(header, chunk);
    const start = dataStart(header);
    if (start === undefined) {
      if (header.length > MAX_HEADER) throw new Error('WAV without a data chunk');
      continue;
    }
    reader = new PeakReader(start.format, start.dataBytes, bars);
    reader.push(header.subarray(start.offset));
  }
  if (!reader) throw new Error('WAV without a data chunk');
  return reader.peaks();
}

/** Per-slice peaks 0–1 of a whole WAV file in memory. */
export function wavPeaks(bytes: Uint8Array, bars = WAVEFORM_BARS): number[] {
  const start = dataStart(bytes);
  if (!start) throw new Error('WAV without a data chunk');
  const reader = new PeakReader(start.format, start.dataBytes, bars);
  reader.push(bytes.subarray(start.offset));
  return reader.peaks();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Where the samples start and how they are encoded, once the header has arrived; undefined until then. */
function dataStart(
  bytes: Uint8Array,
): { offset: number; dataBytes: number; format: SampleFormat & { channels: number } } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12) return undefined;
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let format: (SampleFormat & { channels: number }) | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === 'data') {
      if (!format) throw new Error('WAV data before its fmt chunk');
      return { offset: body, dataBytes: size, format };
    }
    if (tag(at) === 'fmt ') {
      if (body + 16 > bytes.length) return undefined;
      let code = view.getUint16(body, true);
      const bits = view.getUint16(body + 14, true);
      if (code === WAVE_FORMAT_EXTENSIBLE) {
        if (body + 26 > bytes.length) return undefined;
        code = view.getUint16(body + 24, true);
      }
      format = { ...sampleFormat(code, bits), channels: Math.max(1, view.getUint16(body + 2, true)) };
    }
    at = body + size + (size & 1);
  }
  return undefined;
}

/** Peaks of the sample bytes pushed to it, in order; a sample split between two chunks is carried over. */
class PeakReader {
  readonly #format: SampleFormat & { channels: number };
  readonly #peaks: number[];
  readonly #frames: number;
  readonly #perBar: number;
  #left: number;
  #carry: Uint8Array = new Uint8Array(0);
  #sample = 0;

  constructor(format: SampleFormat & { channels: number }, dataBytes: number, bars: number) {
    this.#format = format;
    this.#peaks = new Array<number>(bars).fill(0);
    this.#left = dataBytes - (dataBytes % format.bytes);
    this.#frames = Math.floor(this.#left / format.bytes / format.channels);
    this.#perBar = this.#frames / bars;
  }

  push(chunk: Uint8Array): void {
    const bytes = concat(this.#carry, chunk.subarray(0, Math.min(chunk.length, this.#left - this.#carry.length)));
    const { bytes: size, channels, level } = this.#format;
    const whole = bytes.length - (bytes.length % size);
    const view = new DataView(bytes.buffer, bytes.byteOffset, whole);
    const last = this.#peaks.length - 1;
    for (let at = 0; at < whole; at += size, this.#sample++) {
      const frame = Math.floor(this.#sample / channels);
      // Every other frame is plenty for a picture 160 bars wide and halves the reading of a long track.
      if (frame % 2 === 1) continue;
      const bar = Math.min(last, Math.floor(frame / this.#perBar));
      const value = level(view, at);
      if (value > (this.#peaks[bar] ?? 0)) this.#peaks[bar] = value;
    }
    this.#left -= whole;
    this.#carry = bytes.slice(whole);
  }

  peaks(): number[] {
    return this.#peaks;
  }
}

export function waveformSvg(peaks: readonly number[]): string {
  const step = WIDTH / peaks.length;
  const barWidth = Math.max(1, step * 0.6);
  const mid = HEIGHT / 2;
  const bars = peaks
    .map((peak, i) => {
      const h = Math.max(1.5, peak * (HEIGHT - 8));
      return `<rect x="${(i * step).toFixed(1)}" y="${(mid - h / 2).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" rx="1"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none"><g fill="#6d5dfc">${bars}</g></svg>`;
}

/** A failure is kept this long: long enough that a broken track is not read again at each view, short enough
 * that a storage outage does not outlive itself. */
const FAILURE_TTL_MS = 10 * 60 * 1000;

export class WaveformCache {
  readonly #svgs = new Map<string, { svg: Promise<string>; failedAt?: number }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * The SVG for a generation's WAV, streamed by `open`, computed at most once per generation id (its files never
   * change); a failure is answered again from here for a while, not recomputed at each view.
   */
  svg(generationId: string, open: () => Promise<AsyncIterable<Uint8Array>>): Promise<string> {
    const cached = this.#svgs.get(generationId);
    if (cached && (cached.failedAt === undefined || this.#now() - cached.failedAt < FAILURE_TTL_MS)) return cached.svg;
    const entry: { svg: Promise<string>; failedAt?: number } = {
      svg: open().then(async (chunks) => waveformSvg(await wavPeaksOf(chunks))),
    };
    entry.svg.catch(() => {
      entry.failedAt = this.#now();
    });
    this.#svgs.delete(generationId);
    if (this.#svgs.size >= CACHE_LIMIT) {
      const [oldest] = this.#svgs.keys();
      if (oldest !== undefined) this.#svgs.delete(oldest);
    }
    this.#svgs.set(generationId, entry);
    return entry.svg;
  }
}
