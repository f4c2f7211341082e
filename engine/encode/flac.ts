/**
 * FLAC through libflacjs (libFLAC compiled to WebAssembly, MIT wrapper, BSD libFLAC): lossless, 16 or 24 bits,
 * compression level 5 (libFLAC's default: within a few per cent of the smallest, several times faster than 8).
 */
import type { BitDepth } from './wav.ts';
import { requireQuietly, whenReady } from './wasm.ts';

interface StreamInfo {
  min_framesize: number;
  max_framesize: number;
  md5sum: string;
}

interface FlacModule {
  isReady(): boolean;
  on(event: 'ready', callback: () => void): void;
  create_libflac_encoder(
    sampleRate: number,
    channels: number,
    bps: number,
    level: number,
    totalSamples: number,
    verify: boolean,
  ): number;
  init_encoder_stream(
    encoder: number,
    write: (data: Uint8Array) => void,
    metadata: (info: StreamInfo | undefined) => void,
  ): number;
  FLAC__stream_encoder_process(encoder: number, channels: Int32Array[], samples: number): boolean;
  FLAC__stream_encoder_finish(encoder: number): boolean;
  FLAC__stream_encoder_delete(encoder: number): void;
}

let loaded: Promise<FlacModule> | null = null;

function flac(): Promise<FlacModule> {
  loaded ??= (async () => {
    const module = requireQuietly<FlacModule>('libflacjs/dist/libflac.wasm.js');
    await whenReady(
      () => module.isReady(),
      (callback) => module.on('ready', callback),
    );
    return module;
  })();
  return loaded;
}

const LEVEL = 5;
const CHUNK = 1 << 16;

/** Integer samples (already at `bitDepth`), one Int32Array per channel of equal length. */
export async function encodeFlac(
  channels: [Int32Array, Int32Array],
  sampleRate: number,
  bitDepth: BitDepth,
): Promise<Uint8Array> {
  const lib = await flac();
  const frames = channels[0].length;
  const encoder = lib.create_libflac_encoder(sampleRate, 2, bitDepth, LEVEL, frames, false);
  if (!encoder) throw new Error('libFLAC could not create an encoder');
  const parts: Uint8Array[] = [];
  let info: StreamInfo | undefined;
  try {
    const status = lib.init_encoder_stream(
      encoder,
      (data) => void parts.push(data),
      (metadata) => (info = metadata),
    );
    if (status !== 0) throw new Error(`libFLAC could not start encoding (status ${status})`);
    for (let start = 0; start < frames; start += CHUNK) {
      const end = Math.min(frames, start + CHUNK);
      if (
        !lib.FLAC__stream_encoder_process(
          encoder,
          [channels[0].subarray(start, end), channels[1].subarray(start, end)],
          end - start,
        )
      ) {
        throw new Error('libFLAC failed while encoding');
      }
    }
    lib.FLAC__stream_encoder_finish(encoder);
  } finally {
    lib.FLAC__stream_encoder_delete(encoder);
  }
  const bytes = Buffer.concat(parts);
  if (info) patchStreamInfo(bytes, info);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A stream encoder cannot seek back, so the STREAMINFO it wrote first lacks what is only known at the end:
 * the frame sizes and the MD5 of the audio. libFLAC reports them when it finishes; they are written in here.
 */
function patchStreamInfo(bytes: Uint8Array, info: StreamInfo): void {
  // "fLaC", a 4-byte block header, then STREAMINFO: 2+2 bytes block sizes, 3+3 bytes frame sizes, ... 16 bytes MD5 at 26.
  if (
    bytes[0] !== 0x66 ||
    bytes[1] !== 0x4c ||
    bytes[2] !== 0x61 ||
    bytes[3] !== 0x43 ||
    ((bytes[4] ?? 0) & 0x7f) !== 0
  )
    return;
  const at = 8;
  for (const [offset, value] of [
    [4, info.min_framesize],
    [7, info.max_framesize],
  ] as const) {
    bytes[at + offset] = (value >> 16) & 0xff;
    bytes[at + offset + 1] = (value >> 8) & 0xff;
    bytes[at + offset + 2] = value & 0xff;
  }
  if (/^[0-9a-f]{32}$/i.test(info.md5sum)) bytes.set(Buffer.from(info.md5sum, 'hex'), at + 18);
}
