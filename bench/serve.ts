/**
 * A real `tunesmith serve` for the benches that time what a client waits for (task.ts, estimates.ts): started from
 * a tree (a checkout with node_modules) on a fresh data dir with one render thread, on a free port, with the API
 * key its first start prints. `stop()` ends it and removes the data dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BenchServer {
  tree: string;
  url: string;
  /** `Authorization` headers with the key the first start printed. */
  auth: { authorization: string };
  child: ChildProcess;
  stop(): Promise<void>;
}

/** This checkout. */
export const THIS_TREE = fileURLToPath(new URL('..', import.meta.url));

export async function startBenchServer(tree = THIS_TREE, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(tree, 'src', 'cli.ts'), 'serve'], {
    cwd: tree,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      TUNESMITH_DATA_DIR: dataDir,
      TUNESMITH_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Tunesmith listening on (http:\/\/\S+)/.exec(output);
      if (match) done(match[1] ?? '');
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => fail(new Error(`The server in ${tree} exited:\n${output}`)));
  }).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
  return {
    tree,
    url,
    auth: { authorization: `Bearer ${key}` },
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
