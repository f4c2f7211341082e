/**
 * The Xing/LAME "info frame" an MP3 file starts with. wasm-media-encoders returns LAME's frames without it, so
 * players would guess a VBR file's length from its first frame and could not drop the encoder's delay and
 * padding. This frame (a silent MPEG frame whose body is the tag) carries the frame count, a seek table, and
 * the delay and padding that gapless decoders (ffmpeg, foobar2000, Apple's) trim, so the file decodes to
 * exactly the input's samples.
 */
import * as checked from '../checked.ts';

/** LAME 3.100's encoder delay in samples (measured: an impulse comes out 576 + 529 samples late undecoded). */
export const LAME_DELAY = 576;
const SAMPLES_PER_FRAME = 1152;
const BITRATES_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const SAMPLE_RATES = [44100, 48000, 32000];
/** 128 kbps: the info frame must hold side info, the Xing block and the LAME tag (192 bytes). */
const INFO_BITRATE_INDEX = 9;
/** Side information of an MPEG-1 stereo frame; the Xing block follows it. */
const SIDE_INFO = 32;

interface Frame {
  offset: number;
  length: number;
}

/** The MPEG-1 Layer III frames of an MP3 stream (what LAME writes: no ID3 tag, no free-format frames). */
export function mp3Frames(bytes: Uint8Array): Frame[] {
  const frames: Frame[] = [];
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    const length = frameLength(bytes, offset);
    if (length === 0) throw new Error(`Not an MPEG-1 Layer III frame at byte ${offset}`);
    frames.push({ offset, length });
    offset += length;
  }
  return frames;
}

function frameLength(bytes: Uint8Array, offset: number): number {
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  // Sync, MPEG-1 (11), Layer III (01).
  if (bytes[offset] !== 0xff || (b1 & 0xfe) !== 0xfa) return 0;
  const bitrate = BITRATES_KBPS[b2 >> 4];
  const sampleRate = SAMPLE_RATES[(b2 >> 2) & 3];
  if (!bitrate || !sampleRate) return 0;
  return Math.floor((144_000 * bitrate) / sampleRate) + ((b2 >> 1) & 1);
}

/** CRC-16 as LAME computes it for its tag (polynomial 0x8005 reflected, initial 0). */
function crc16(bytes: Uint8Array, crc = 0): number {
  for (let i = 0; i < bytes.length; i++) {
    crc ^= bytes[i] ?? 0;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/**
 * How many frames LAME 3.100 writes for `samples` input samples per channel: one per 1152 samples begun, and one
 * more for its delay and the decoder's (measured for every rate, VBR and CBR; test/engine/mp3-stream.test.ts).
 * What lets a streamed file's info frame be written before its audio is encoded.
 */
export function lameFrameCount(samples: number): number {
  return Math.ceil(samples / SAMPLES_PER_FRAME) + 1;
}

/** What an info frame says: the fields not known while the file is still being encoded are left out. */
interface InfoFields {
  /** The first audio frame's header: the info frame takes its sample rate and channel mode. */
  first: Uint8Array;
  frames: number;
  samples: number;
  vbr: boolean;
  /** The whole file's bytes and the audio frames' offsets (the seek table), and the audio for its CRC. */
  whole?: { audio: Uint8Array; offsets: readonly number[] };
}

function infoFrame({ first, frames, samples, vbr, whole }: InfoFields): Uint8Array {
  const header = new Uint8Array([0xff, 0xfb, (INFO_BITRATE_INDEX << 4) | ((first[2] ?? 0) & 0x0c), first[3] ?? 0]);
  const size = frameLength(header, 0);
  const frame = new Uint8Array(size);
  frame.set(header, 0);
  const view = new DataView(frame.buffer);

  let at = 4 + SIDE_INFO;
  frame.set(Buffer.from(vbr ? 'Xing' : 'Info', 'latin1'), at);
  const total = whole ? size + whole.audio.length : 0;
  if (whole) {
    view.setUint32(at + 4, 0x0f, false); // frames, bytes, seek table and quality present
    view.setUint32(at + 8, frames, false);
    view.setUint32(at + 12, total, false);
    const { offsets } = whole;
    for (let i = 0; i < 100; i++) {
      // Seek table: where each percent of the duration starts, in 256ths of the file.
      const target = checked.at(offsets, Math.min(offsets.length - 1, Math.floor((i / 100) * offsets.length)));
      frame[at + 16 + i] = Math.min(255, Math.floor((256 * (size + target)) / total));
    }
    view.setUint32(at + 116, 0, false); // quality: not recorded
    at += 120;
  } else {
    view.setUint32(at + 4, 0x01, false); // the frame count alone
    view.setUint32(at + 8, frames, false);
    at += 12;
  }

  frame.set(Buffer.from('LAME3.100', 'latin1'), at);
  frame[at + 9] = vbr ? 4 : 1; // tag revision 0, VBR method: 4 = VBR (mtrh), 1 = CBR
  const padding = frames * SAMPLES_PER_FRAME - samples - LAME_DELAY;
  // Encoder delay and padding, 12 bits each: what gapless decoders trim.
  frame[at + 21] = LAME_DELAY >> 4;
  frame[at + 22] = ((LAME_DELAY & 0x0f) << 4) | ((padding >> 8) & 0x0f);
  frame[at + 23] = padding & 0xff;
  if (whole) {
    view.setUint32(at + 28, total, false); // music length
    view.setUint16(at + 32, crc16(whole.audio), false); // music CRC
  }
  view.setUint16(at + 34, crc16(frame.subarray(0, at + 34)), false); // tag CRC over the frame so far
  return frame;
}

/**
 * `audio`: LAME's frames (`frames`: their offsets, when known); `samples`: input samples per channel; `vbr`: false
 * for constant bitrate (the tag is then called "Info"). Returns the file: the info frame followed by the audio frames.
 */
export function withInfoFrame(
  audio: Uint8Array,
  samples: number,
  vbr: boolean,
  frames: readonly Frame[] = mp3Frames(audio),
): Uint8Array {
  if (frames.length === 0) throw new Error('LAME returned no frames');
  const offsets = frames.map((frame) => frame.offset);
  return Buffer.concat([
    infoFrame({ first: audio.subarray(0, 4), frames: frames.length, samples, vbr, whole: { audio, offsets } }),
    audio,
  ]);
}

/**
 * The info frame of a file whose audio is still being encoded, to stream ahead of it: the same size as the
 * finished file's, with the frame count (LAME's, from the length) and the delay and padding, so a player knows the
 * duration and decodes gaplessly; without the byte count, the seek table and the audio's CRC, which only the
 * finished file has. `first`: the first audio frame (or its header).
 */
export function provisionalInfoFrame(first: Uint8Array, samples: number, vbr: boolean): Uint8Array {
  return infoFrame({ first, frames: lameFrameCount(samples), samples, vbr });
}
