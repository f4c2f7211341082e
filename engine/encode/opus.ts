/**
 * Ogg Opus (RFC 7845) through opus-encdec's libopus 1.3.1 WebAssembly build (MIT wrapper, BSD libopus).
 * Only the codec is used: the package's own Ogg writer drops pages in some cases and hard-codes an 80 ms
 * pre-skip, so packets are muxed here (ogg.ts) with the encoder's real look-ahead as pre-skip and the last
 * granule position trimmed to the exact length, so decoders return exactly the input's samples.
 */
import { at } from '../checked.ts';
import { OggWriter } from './ogg.ts';
import { resampleStereo } from './resample.ts';
import { requireQuietly, whenReady } from './wasm.ts';

interface OpusModule {
  isReady: boolean;
  onready?: () => void;
  HEAPF32: Float32Array;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _opus_encoder_create(sampleRate: number, channels: number, application: number, error: number): number;
  _opus_encoder_ctl(encoder: number, request: number, value: number): number;
  _opus_encode_float(encoder: number, pcm: number, frameSize: number, data: number, maxBytes: number): number;
  _opus_encoder_destroy(encoder: number): void;
}

let loaded: Promise<OpusModule> | null = null;

function opus(): Promise<OpusModule> {
  loaded ??= (async () => {
    const module = requireQuietly<OpusModule>('opus-encdec/dist/libopus-encoder.wasm.min.js');
    await whenReady(
      () => module.isReady,
      (callback) => (module.onready = callback),
    );
    return module;
  })();
  return loaded;
}

export const OPUS_RATE = 48_000;
/** Full-band music: transparent for most listeners at this rate, about 1.2 MB a minute. */
export const OPUS_BITRATE = 160_000;
const FRAME = 960; // 20 ms at 48 kHz
const MAX_PACKET = 4000;
const APPLICATION_AUDIO = 2049;
const SET_BITRATE = 4002;
const SET_COMPLEXITY = 4010;
const GET_LOOKAHEAD = 4027;
/** Fifty 20 ms packets to a page: one-second pages keep seeking fine-grained at little overhead. */
const PACKETS_PER_PAGE = 50;

export async function encodeOpus(
  left: Float32Array,
  right: Float32Array,
  sampleRate: number,
  serial = 0x54534d31,
): Promise<Uint8Array> {
  const lib = await opus();
  const [l, r] = resampleStereo(left, right, sampleRate, OPUS_RATE);
  const error = lib._malloc(4);
  const encoder = lib._opus_encoder_create(OPUS_RATE, 2, APPLICATION_AUDIO, error);
  const failed = lib.HEAP32[error >> 2];
  lib._free(error);
  if (!encoder || failed !== 0) throw new Error(`libopus could not create an encoder (error ${failed})`);
  const pcm = lib._malloc(FRAME * 2 * 4);
  const out = lib._malloc(MAX_PACKET);
  const value = lib._malloc(4);
  try {
    control(lib, encoder, SET_BITRATE, OPUS_BITRATE, value);
    control(lib, encoder, SET_COMPLEXITY, 10, value);
    lib._opus_encoder_ctl(encoder, GET_LOOKAHEAD, value);
    const preSkip = at(lib.HEAP32, value >> 2);

    const ogg = new OggWriter(serial);
    ogg.header(opusHead(preSkip, sampleRate), true);
    ogg.header(opusTags(), false);
    const samples = l.length;
    // The decoder drops pre-skip samples first, so input runs that much past the end before the granule trims it.
    const packets = Math.ceil((samples + preSkip) / FRAME);
    for (let p = 0; p < packets; p++) {
      // Views are taken again each time: the WebAssembly memory may have grown and replaced the buffer.
      const heap = lib.HEAPF32.subarray(pcm >> 2, (pcm >> 2) + FRAME * 2);
      const start = p * FRAME;
      for (let i = 0; i < FRAME; i++) {
        const index = start + i;
        heap[2 * i] = index < samples ? (l[index] ?? 0) : 0;
        heap[2 * i + 1] = index < samples ? (r[index] ?? 0) : 0;
      }
      const bytes = lib._opus_encode_float(encoder, pcm, FRAME, out, MAX_PACKET);
      if (bytes < 0) throw new Error(`libopus failed while encoding (error ${bytes})`);
      ogg.packet(lib.HEAPU8.slice(out, out + bytes), (p + 1) * FRAME, PACKETS_PER_PAGE);
    }
    return ogg.finish(samples + preSkip);
  } finally {
    lib._free(value);
    lib._free(out);
    lib._free(pcm);
    lib._opus_encoder_destroy(encoder);
  }
}

function control(lib: OpusModule, encoder: number, request: number, argument: number, scratch: number): void {
  // The build's ctl takes its variadic argument through memory: a pointer to the value.
  lib.HEAP32[scratch >> 2] = argument;
  lib._opus_encoder_ctl(encoder, request, scratch);
}

function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(Buffer.from('OpusHead', 'latin1'), 0);
  head[8] = 1; // version
  head[9] = 2; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family 0: mono or stereo
  return head;
}

function opusTags(): Uint8Array {
  const vendor = Buffer.from('Tunesmith (libopus 1.3.1)', 'utf8');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(Buffer.from('OpusTags', 'latin1'), 0);
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no user comments
  return tags;
}
