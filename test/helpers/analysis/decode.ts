/**
 * Reading encoded audio back with ffmpeg/ffprobe, independent of the encoders that wrote it: what the container
 * says (codec, rate, channels, bits) and what a full decode yields (frames, and the PCM itself).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { run } from './exec.ts';

export interface StreamInfo {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Bits per sample of PCM/FLAC (0 for lossy codecs). */
  bits: number;
  /** The container's own duration, seconds. */
  duration: number;
  /** Stream bitrate in bits per second when the container states one (0 otherwise). */
  bitRate: number;
}

export async function probe(path: string): Promise<StreamInfo> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=codec_name,sample_rate,channels,bits_per_raw_sample,bits_per_sample,bit_rate:format=duration,bit_rate',
    '-of',
    'json',
    path,
  ]);
  const json = JSON.parse(stdout) as { streams: Record<string, string | number>[]; format: Record<string, string> };
  const stream = json.streams[0];
  if (!stream) throw new Error(`ffprobe found no audio stream in ${path}`);
  return {
    codec: String(stream.codec_name),
    sampleRate: Number(stream.sample_rate),
    channels: Number(stream.channels),
    bits: Number(stream.bits_per_raw_sample ?? 0) || Number(stream.bits_per_sample ?? 0),
    duration: Number(json.format.duration),
    bitRate: Number(stream.bit_rate ?? json.format.bit_rate ?? 0),
  };
}

/** Decodes the whole file at its own rate to interleaved 32-bit PCM; resolves with its frame count and sha256. */
export function decode(path: string, channels = 2): Promise<{ frames: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-v', 'error', '-i', path, '-f', 's32le', '-ac', String(channels), '-'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hash = createHash('sha256');
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ frames: bytes / (4 * channels), sha256: hash.digest('hex') })
        : reject(new Error(`ffmpeg could not decode ${path}: ${stderr}`)),
    );
  });
}
