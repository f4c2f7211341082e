/**
 * A small, independent WAV reader for tests: parses the RIFF chunks by hand (not through wavefile,
 * which the engine itself uses to encode), so a header bug in the engine cannot hide from the tests.
 * Supports PCM 8/16/24/32-bit, IEEE float 32/64 and WAVE_FORMAT_EXTENSIBLE wrappers of those.
 */
import { readFile } from 'node:fs/promises';

export interface WavHeader {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** 1 = PCM, 3 = IEEE float (the sub-format when the file is WAVE_FORMAT_EXTENSIBLE). */
  format: number;
  /** Exact number of sample frames in the data chunk. */
  frames: number;
  dataOffset: number;
  dataBytes: number;
}

export interface WavAudio extends WavHeader {
  /** One Float32Array per channel, samples scaled to [-1, 1). */
  channelData: Float32Array[];
}

export class WavFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavFormatError';
  }
}

export function parseWavHeader(buf: Uint8Array): WavHeader {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const tag = (at: number) => String.fromCharCode(buf[at]!, buf[at + 1]!, buf[at + 2]!, buf[at + 3]!);
  if (buf.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavFormatError('not a RIFF/WAVE file');
  let offset = 12;
  let fmt: Omit<WavHeader, 'frames' | 'dataOffset' | 'dataBytes'> | null = null;
  while (offset + 8 <= buf.byteLength) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      let format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bitsPerSample = view.getUint16(body + 14, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (format === 0xfffe && size >= 40) format = view.getUint16(body + 24, true);
      fmt = { format, channels, sampleRate, bitsPerSample };
    } else if (id === 'data') {
      if (!fmt) throw new WavFormatError('data chunk before fmt chunk');
      const blockAlign = fmt.channels * (fmt.bitsPerSample / 8);
      const dataBytes = Math.min(size, buf.byteLength - body);
      if (dataBytes % blockAlign !== 0)
        throw new WavFormatError(`data size ${dataBytes} is not a whole number of frames`);
      return { ...fmt, frames: dataBytes / blockAlign, dataOffset: body, dataBytes };
    }
    // Chunks are word-aligned: an odd size is followed by a pad byte.
    offset = body + size + (size % 2);
  }
  throw new WavFormatError('no data chunk');
}

export function decodeWav(buf: Uint8Array): WavAudio {
  const header = parseWavHeader(buf);
  const { channels, frames, bitsPerSample, format, dataOffset } = header;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const bytes = bitsPerSample / 8;
  const read = sampleReader(view, format, bitsPerSample);
  const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) {
    const frameAt = dataOffset + i * channels * bytes;
    for (let c = 0; c < channels; c++) channelData[c]![i] = read(frameAt + c * bytes);
  }
  return { ...header, channelData };
}

function sampleReader(view: DataView, format: number, bits: number): (at: number) => number {
  if (format === 3 && bits === 32) return (at) => view.getFloat32(at, true);
  if (format === 3 && bits === 64) return (at) => view.getFloat64(at, true);
  if (format !== 1) throw new WavFormatError(`unsupported WAV format ${format}`);
  switch (bits) {
    case 8:
      return (at) => (view.getUint8(at) - 128) / 128;
    case 16:
      return (at) => view.getInt16(at, true) / 32768;
    case 24:
      return (at) =>
        ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2147483648;
    case 32:
      return (at) => view.getInt32(at, true) / 2147483648;
    default:
      throw new WavFormatError(`unsupported PCM bit depth ${bits}`);
  }
}

export async function readWav(path: string): Promise<WavAudio> {
  return decodeWav(new Uint8Array(await readFile(path)));
}

/** Reads only the header: enough for frames/sampleRate/channels without decoding the samples. */
export async function readWavHeader(path: string): Promise<WavHeader> {
  return parseWavHeader(new Uint8Array(await readFile(path)));
}

/** Mean of the channels: the mono signal every spectral analyser works on. */
export function monoMix(audio: WavAudio): Float32Array {
  const mono = new Float32Array(audio.frames);
  const scale = 1 / audio.channels;
  for (const data of audio.channelData) for (let i = 0; i < audio.frames; i++) mono[i]! += data[i]! * scale;
  return mono;
}

/** Exact sample frames in the data chunk. */
export async function frames(path: string): Promise<number> {
  return (await readWavHeader(path)).frames;
}

export async function sampleRate(path: string): Promise<number> {
  return (await readWavHeader(path)).sampleRate;
}

export async function channels(path: string): Promise<number> {
  return (await readWavHeader(path)).channels;
}
