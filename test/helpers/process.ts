/**
 * Runs the real CLI in child processes, for tests of what only a process shows: the data-dir lock,
 * kill -9 recovery, signals, exit codes and output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const cliEntry = join(repo, 'src', 'cli.ts');

export async function tempDataDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-proc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tunesmith <args>` to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runScript(cliEntry, args, env);
}

/** Runs a TypeScript file of the repository in a new Node process (through tsx) to completion. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** The URL the server printed; empty when it exited before listening. */
  url: string;
  output(): string;
  /** What it wrote to stdout alone: the log. */
  stdout(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `tunesmith serve` on an ephemeral port and resolves once it prints where it listens, or once
 * it exits (a refused start). Killed with SIGKILL at teardown if still running.
 */
export function startServerProcess(
  t: ExecutionContext,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startCliProcess(t, 'serve', dataDir, env, /Tunesmith listening on (http:\/\/\S+)/);
}

/**
 * Starts `tunesmith worker` and resolves once it says it takes jobs (its `url` is then "worker"), or once it exits.
 * Killed with SIGKILL at teardown if still running.
 */
export function startWorkerProcess(
  t: ExecutionContext,
  dataDir: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
): Promise<ServerProcess> {
  return startCliProcess(t, 'worker', dataDir, env, /Tunesmith worker (taking) render jobs/, args);
}

/** A long-running CLI command; `ready` matches its start line, and its first group is the handle's `url`. */
async function startCliProcess(
  t: ExecutionContext,
  command: string,
  dataDir: string,
  env: Record<string, string>,
  ready: RegExp,
  args: readonly string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliEntry, command, ...args], {
    cwd: repo,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TUNESMITH_DATA_DIR: dataDir, TUNESMITH_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const url = await new Promise<string>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => resolve(''));
  });
  return {
    child,
    url,
    output: () => output,
    stdout: () => stdout,
    exited,
    kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

/** Polls `check` every `intervalMs` until it returns a value, for at most `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
