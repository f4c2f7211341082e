/**
 * The waveform picture of a finished track: the WAV's peak level in a few hundred slices, drawn as a
 * symmetric SVG bar chart. Computed once per generation (its files never change) and kept in memory.
 */
export const WAVEFORM_BARS = 160;
const CACHE_LIMIT = 500;
const WIDTH = 960;
const HEIGHT = 120;

/** Per-slice peaks 0–1 of 16-bit PCM or 32-bit float WAV data, all channels together. */
export function wavPeaks(bytes: Uint8Array, bars = WAVEFORM_BARS): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let format = 0;
  let bits = 0;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === 'fmt ') {
      format = view.getUint16(body, true);
      bits = view.getUint16(body + 14, true);
    } else if (tag(at) === 'data') {
      const end = Math.min(bytes.length, body + size);
      if (format === 1 && bits === 16)
        return slicePeaks((end - body) >> 1, bars, (i) => Math.abs(view.getInt16(body + 2 * i, true)) / 32768);
      if (format === 3 && bits === 32)
        return slicePeaks((end - body) >> 2, bars, (i) => Math.min(1, Math.abs(view.getFloat32(body + 4 * i, true))));
      throw new Error(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
    }
    at = body + size + (size & 1);
  }
  throw new Error('WAV without a data chunk');
}

function slicePeaks(samples: number, bars: number, level: (i: number) => number): number[] {
  const peaks = new Array<number>(bars).fill(0);
  if (samples === 0) return peaks;
  const perBar = samples / bars;
  // Every 4th sample is plenty for a picture 160 bars wide and reads a 3-minute track in a blink.
  for (let i = 0; i < samples; i += 4) {
    const bar = Math.min(bars - 1, Math.floor(i / perBar));
    const value = level(i);
    if (value > (peaks[bar] ?? 0)) peaks[bar] = value;
  }
  return peaks;
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

export class WaveformCache {
  readonly #svgs = new Map<string, Promise<string>>();

  /** The SVG for a generation's WAV, read by `read`, computed at most once per generation id. */
  svg(generationId: string, read: () => Promise<Uint8Array>): Promise<string> {
    let svg = this.#svgs.get(generationId);
    if (!svg) {
      svg = read().then((bytes) => waveformSvg(wavPeaks(bytes)));
      svg.catch(() => this.#svgs.delete(generationId));
      if (this.#svgs.size >= CACHE_LIMIT) {
        const [oldest] = this.#svgs.keys();
        if (oldest !== undefined) this.#svgs.delete(oldest);
      }
      this.#svgs.set(generationId, svg);
    }
    return svg;
  }
}
