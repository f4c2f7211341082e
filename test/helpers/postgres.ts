/**
 * A real, throwaway PostgreSQL for tests: Debian's `postgresql` server binaries, a cluster made with `initdb` in a
 * temp dir and started with `pg_ctl` on a free port, one per test process (ava runs each file in its own), and
 * a fresh database per test. Nothing is mocked: the tests talk to the same server users run.
 *
 * PostgreSQL refuses to run as root, so under root (CI) the cluster belongs to the `postgres` user that
 * Debian's package creates, and its commands run through `runuser`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import pg from 'pg';
import { postgresBinDir } from '../../scripts/postgres-bin.ts';

export interface PostgresServer {
  /** postgres://… of the server's `postgres` database (superuser, trust auth on loopback only). */
  readonly adminUrl: string;
  readonly port: number;
  /** Stops the cluster (pg_ctl stop -m fast: connections are cut) and starts it again on the same port: a database outage. */
  stop(): void;
  start(): void;
}

let started: Promise<PostgresServer> | undefined;
let databases = 0;

/** The process's cluster, started on first use and stopped when the process exits. */
export function postgresServer(): Promise<PostgresServer> {
  started ??= start();
  return started;
}

/**
 * A new, empty database on the process's cluster, dropped at the test's teardown. Returns its URL.
 * Tests that open pools on it must close them in their own teardown, which ava runs before this one.
 */
export async function freshDatabase(t: ExecutionContext): Promise<string> {
  const server = await postgresServer();
  const name = `t${process.pid}_${++databases}`;
  await admin(server, `CREATE DATABASE ${name}`);
  t.teardown(() => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return `postgres://postgres@127.0.0.1:${server.port}/${name}`;
}

async function start(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      "PostgreSQL server binaries not found: install Debian's `postgresql` package (npm test does this as root).",
    );
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'tunesmith-pg-'));
  const data = join(dir, 'data');
  if (root) {
    chmodSync(dir, 0o755);
    chownSync(dir, uid('postgres'), gid('postgres'));
  }
  const as = (command: string, args: string[]) =>
    root
      ? (['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] as const)
      : ([join(bin, command), args] as const);
  const run = (command: string, args: string[]) => {
    const [file, argv] = as(command, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // Tests need no durability, and the socket lives in the cluster's own dir, not /var/run/postgresql.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  process.once('exit', () => {
    const [file, argv] = as('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    spawnSync(file, argv, { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']),
  };
}

/** Runs one statement as the superuser on the server's `postgres` database (CREATE/DROP DATABASE). */
export async function admin(server: PostgresServer, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
