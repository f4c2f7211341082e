/**
 * The local admin channel: while a server owns the data dir, the CLI's key and account commands are
 * sent to it over a Unix domain socket (newline-delimited JSON, one request per connection) instead of
 * writing the files underneath it. The socket is mode 0600: only the data dir's owner can use it.
 */
import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminCommandError, runAdminCommand, type AdminContext, type AdminRequest } from './admin-commands.ts';

/** sun_path holds about 104 bytes: a deep data dir gets a socket in the temp dir named after it. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 64 * 1024;

export function adminSocketPath(dataDir: string): string {
  const inDataDir = join(dataDir, 'admin.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  return join(tmpdir(), `tunesmith-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

type Reply = { ok: true; result: unknown } | { ok: false; error: { name: string; message: string } };

export interface AdminServer {
  close(): Promise<void>;
}

/** Call only while holding the data-dir lock: a socket file already there is left from a crash. */
export async function serveAdmin(context: AdminContext, dataDir: string): Promise<AdminServer> {
  const path = adminSocketPath(dataDir);
  rmSync(path, { force: true });
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      socket.pause();
      void answer(context, buffered.slice(0, newline)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

async function answer(context: AdminContext, line: string): Promise<Reply> {
  try {
    return { ok: true, result: await runAdminCommand(context, JSON.parse(line) as AdminRequest) };
  } catch (error) {
    const known = error instanceof AdminCommandError;
    return {
      ok: false,
      error: {
        name: known ? error.name : 'Error',
        message: known ? error.message : `The server could not run the command: ${(error as Error).message}`,
      },
    };
  }
}

/** The server did not answer: no socket, or nothing listening on it. The caller may retry. */
export class AdminUnavailableError extends Error {
  override name = 'AdminUnavailableError' as const;
}

export function callAdmin(dataDir: string, request: AdminRequest, timeoutMs = 10_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let buffered = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error('The server did not answer the admin command in time.')),
    );
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        !connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')
          ? new AdminUnavailableError(error.message)
          : error,
      );
    });
    socket.on('end', () => {
      try {
        const reply = JSON.parse(buffered) as Reply;
        if (reply.ok) resolve(reply.result);
        else reject(new AdminCommandError(reply.error.message));
      } catch {
        reject(new Error('The server sent an unreadable answer to the admin command.'));
      }
    });
  });
}
