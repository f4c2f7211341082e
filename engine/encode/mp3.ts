/**
 * MP3 through wasm-media-encoders: LAME 3.100 compiled to WebAssembly (the wrapper is MIT; LAME itself is
 * LGPL-2.0, shipped unmodified as the package's .wasm: see NOTICE). VBR quality 2 (LAME's -V2, about
 * 190 kbps on music) by default, or a constant bitrate when the request names one.
 */
import { readFileSync } from 'node:fs';
import { resolveModule, requireQuietly } from './wasm.ts';
import { lameFrameCount, mp3Frames, provisionalInfoFrame, withInfoFrame } from './mp3-info.ts';

export const MP3_BITRATES = [96, 128, 160, 192, 256, 320] as const;
export type Mp3Bitrate = (typeof MP3_BITRATES)[number];

interface Mp3Encoder {
  configure(params: { sampleRate: number; channels: 2; vbrQuality?: number; bitrate?: number }): void;
  encode(samples: readonly Float32Array[]): Uint8Array;
  finalize(): Uint8Array;
}

interface EncoderPackage {
  createEncoder(mimeType: 'audio/mpeg', wasm: Uint8Array): Promise<Mp3Encoder>;
}

let loaded: Promise<Mp3Encoder> | null = null;

/** One encoder per thread, reconfigured for each file. The .wasm is read from disk: the package would otherwise fetch() a data URL. */
function encoder(): Promise<Mp3Encoder> {
  loaded ??= requireQuietly<EncoderPackage>('wasm-media-encoders').createEncoder(
    'audio/mpeg',
    readFileSync(resolveModule('wasm-media-encoders/wasm/mp3')),
  );
  return loaded;
}

const VBR_QUALITY = 2;
const CHUNK = 1152 * 64;

/**
 * `bitrate`: kbps for constant bitrate; undefined for VBR -V2. `onPiece`, when given, gets the file's bytes as they
 * are encoded, to stream: first an info frame written ahead (provisionalInfoFrame), then LAME's frames as each
 * chunk of input gives them. A constant-bitrate file is exactly the pieces: its info frame needs no more than the
 * frame count (a player finds its way by the bitrate), so the stored file and a streamed download are the same
 * bytes. A VBR file's stored info frame (the same size) adds the byte count, the seek table and the audio's CRC,
 * which only the finished file has: the pieces are that file but for the first frame's tag.
 *
 * Throws when LAME wrote another number of frames than lameFrameCount says (an encoder changed under us): the
 * provisional frame, already sent, would have told players a wrong length.
 */
export async function encodeMp3(
  left: Float32Array,
  right: Float32Array,
  sampleRate: number,
  bitrate?: Mp3Bitrate,
  onPiece?: (piece: Uint8Array) => void,
): Promise<Uint8Array> {
  const lame = await encoder();
  const vbr = bitrate === undefined;
  lame.configure(vbr ? { sampleRate, channels: 2, vbrQuality: VBR_QUALITY } : { sampleRate, channels: 2, bitrate });
  const parts: Uint8Array[] = [];
  let head: Uint8Array | null = null;
  const add = (piece: Uint8Array) => {
    if (piece.length === 0) return;
    if (!head) {
      head = provisionalInfoFrame(piece, left.length, vbr);
      onPiece?.(head);
    }
    parts.push(piece);
    onPiece?.(piece);
  };
  // encode() returns a view of the encoder's own memory, valid until the next call: copy each piece.
  for (let start = 0; start < left.length; start += CHUNK) {
    add(lame.encode([left.subarray(start, start + CHUNK), right.subarray(start, start + CHUNK)]).slice());
  }
  add(lame.finalize().slice());
  const audio = Buffer.concat(parts);
  const frames = mp3Frames(audio);
  if (frames.length !== lameFrameCount(left.length))
    throw new Error(
      `LAME wrote ${frames.length} frames for ${left.length} samples, not the ${lameFrameCount(left.length)} the info frame says`,
    );
  return head && !vbr ? Buffer.concat([head, audio]) : withInfoFrame(audio, left.length, vbr, frames);
}
