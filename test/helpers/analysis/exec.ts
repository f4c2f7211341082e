/**
 * Running the Debian analysis tools (ffmpeg, sox, aubio, bpm-tools) from tests.
 * Plain execFile (no shell), so odd characters in temp paths are harmless.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Generous buffer: aubio prints one line per onset/beat, ffmpeg prints a line per 100 ms with ebur128. */
const MAX_BUFFER = 64 * 1024 * 1024;

export async function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const { stdout, stderr } = await execFileAsync(cmd, args, { maxBuffer: MAX_BUFFER, encoding: 'utf8' });
  return { stdout, stderr };
}

/** `a | b` without a shell: a's stdout feeds b's stdin; resolves with b's stdout. */
export function pipe(a: { cmd: string; args: string[] }, b: { cmd: string; args: string[] }): Promise<string> {
  return new Promise((resolve, reject) => {
    const first = spawn(a.cmd, a.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const second = spawn(b.cmd, b.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    first.stdout.pipe(second.stdin);
    // bpm may close its stdin early; an EPIPE there is not an error of ours.
    second.stdin.on('error', () => {});
    first.stderr.on('data', (d: Buffer) => (err += d.toString()));
    second.stderr.on('data', (d: Buffer) => (err += d.toString()));
    second.stdout.on('data', (d: Buffer) => (out += d.toString()));
    first.on('error', reject);
    second.on('error', reject);
    let firstCode: number | null = null;
    first.on('close', (code) => (firstCode = code));
    second.on('close', (code) => {
      if (code !== 0 || (firstCode !== null && firstCode !== 0)) {
        reject(new Error(`${a.cmd} | ${b.cmd} failed (${firstCode}/${code}): ${err.trim()}`));
      } else {
        resolve(out);
      }
    });
  });
}

/** Parses numbers printed one per line (aubio's output), ignoring blank lines. */
export function parseNumberLines(text: string): number[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map(Number)
    .filter((n) => Number.isFinite(n));
}
