/**
 * Loudness by the reference meter: ffmpeg's ebur128 filter (EBU R128 / ITU-R BS.1770), and sample
 * statistics by sox `stats`. Both are Debian tools, independent of the engine's own normaliser.
 */
import { run } from './exec.ts';

export interface Loudness {
  /** Integrated loudness, LUFS (−70 for digital silence: the meter's absolute gate). */
  integratedLufs: number;
  /** True peak (4× oversampled), dBTP; −Infinity for digital silence. */
  truePeakDbtp: number;
  /** Loudness range, LU. */
  lra: number;
}

function summaryNumber(summary: string, label: RegExp, what: string): number {
  const m = label.exec(summary);
  if (!m) throw new Error(`ebur128 summary has no ${what}:\n${summary}`);
  return m[1] === '-inf' ? -Infinity : Number(m[1]);
}

export function parseEbur128Summary(stderr: string): Loudness {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) throw new Error(`no ebur128 Summary in ffmpeg output:\n${stderr.slice(-2000)}`);
  const summary = stderr.slice(at);
  return {
    integratedLufs: summaryNumber(summary, /I:\s+(-?[\d.]+|-inf)\s+LUFS/, 'integrated loudness'),
    lra: summaryNumber(summary, /LRA:\s+(-?[\d.]+|-inf)\s+LU\b/, 'loudness range'),
    truePeakDbtp: summaryNumber(summary, /Peak:\s+(-?[\d.]+|-inf)\s+dBFS/, 'true peak'),
  };
}

export async function loudness(path: string): Promise<Loudness> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-i',
    path,
    '-af',
    'ebur128=peak=true',
    '-f',
    'null',
    '-',
  ]);
  return parseEbur128Summary(stderr);
}

export interface SampleStats {
  /** Highest |sample| over all channels, dBFS (0 = full scale; −Infinity for silence). */
  peakDb: number;
  /** Largest per-channel DC offset magnitude, in full-scale units. */
  dcOffset: number;
  /** RMS over all channels, dBFS. */
  rmsDb: number;
  /** Samples at the peak level (sox "Pk count"), a hint of flat-topped clipping when large. */
  peakCount: number;
}

/** Parses sox `stats` (the "Overall" column; DC is the worst channel's). */
export function parseSoxStats(stderr: string): SampleStats {
  const row = (label: string): string[] => {
    const line = stderr.split('\n').find((l) => l.startsWith(label));
    if (!line) throw new Error(`sox stats has no "${label}" row:\n${stderr}`);
    return line.slice(label.length).trim().split(/\s+/);
  };
  const num = (s: string) => (s === '-inf' ? -Infinity : Number(s));
  const dcs = row('DC offset').map(num);
  const pkCount = row('Pk count')[0]!;
  return {
    peakDb: num(row('Pk lev dB')[0]!),
    dcOffset: Math.max(...dcs.map(Math.abs)),
    rmsDb: num(row('RMS lev dB')[0]!),
    // sox abbreviates big counts ("1.23k").
    peakCount: pkCount.endsWith('k')
      ? Number(pkCount.slice(0, -1)) * 1000
      : pkCount.endsWith('M')
        ? Number(pkCount.slice(0, -1)) * 1e6
        : Number(pkCount),
  };
}

export async function stats(path: string): Promise<SampleStats> {
  const { stderr } = await run('sox', [path, '-n', 'stats']);
  return parseSoxStats(stderr);
}
