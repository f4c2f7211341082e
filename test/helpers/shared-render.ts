/**
 * One server process and one render shared by every test of a file: the tests that check a finished
 * track's files through the real server (formats, encode on fetch) need one track, not one per test.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Json } from './json.ts';
import { awaitCompleted } from './long-poll.ts';
import { startServerProcess, tempDataDir, type ServerProcess } from './process.ts';

export interface SharedRender {
  generation: Json;
  server: ServerProcess;
  /** The server's data dir. */
  dataDir: string;
  /** A scratch dir for the test's own downloads. */
  dir: string;
}

/**
 * Returns a function that starts the server and renders `body` on its first call and gives every caller
 * the same result. Call it at the top level of a test file: it registers the file's teardown hook.
 */
export function sharedRender(body: Record<string, unknown>): () => Promise<SharedRender> {
  const teardowns: (() => unknown)[] = [];
  const fileScope = { teardown: (fn: () => unknown) => void teardowns.push(fn) } as unknown as ExecutionContext;
  let shared: Promise<SharedRender> | null = null;

  test.after.always(async () => {
    for (const teardown of teardowns.reverse()) await teardown();
  });

  return () => {
    shared ??= (async () => {
      const dataDir = await tempDataDir(fileScope);
      const server = await startServerProcess(fileScope, dataDir);
      const key = /\b(ts_live_[A-Za-z0-9_-]+)/.exec(server.output())?.[1] ?? '';
      const auth = { authorization: `Bearer ${key}` };
      const created = await fetch(`${server.url}/v1/generate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (created.status !== 202) throw new Error(await created.text());
      const { id } = (await created.json()) as { id: string };
      const generation = await awaitCompleted(server.url, auth, id, 170_000);
      const dir = await mkdtemp(join(tmpdir(), 'tunesmith-shared-render-'));
      fileScope.teardown(() => rm(dir, { recursive: true, force: true }));
      return { generation, server, dataDir, dir };
    })();
    return shared;
  };
}
