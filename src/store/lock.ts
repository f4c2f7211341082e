/**
 * One process owns a data dir at a time. The lock is a file created with O_EXCL that names its holder
 * (pid, host, boot, process start). A lock whose holder is gone (kill -9, power loss, pid reused
 * after a reboot) is stale and is taken over; a live holder's lock is refused.
 *
 * Holding it is checked again before every write (check()): a lock file deleted by hand lets a second server
 * start, and two writers would each overwrite the other's accounts and quotas. The check compares the file's
 * inode with the one this process created, a stat and nothing more. A lock that is simply gone is taken back
 * (O_EXCL, so never from a server that made a new one meanwhile); one replaced by another process is lost for
 * good, and every write after that is refused.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  fsyncSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { DataDirLockLostError, DataDirLockedError } from './errors.ts';

export const LOCK_FILE = 'server.lock';

export type LockOwner = 'server' | 'cli';

export interface LockInfo {
  pid: number;
  hostname: string;
  owner: LockOwner;
  started_at: string;
  /** Linux: the kernel boot id, so a lock from before a reboot is recognised as stale. */
  boot_id: string | null;
  /** Linux: the holder's start time in clock ticks since boot, so a reused pid is not mistaken for the holder. */
  process_start: string | null;
}

export interface DataDirLock {
  readonly info: LockInfo;
  /** Whether this process found the lock taken by another: sticky, writes stay refused until a restart. */
  readonly lost: boolean;
  /** Throws DataDirLockLostError unless this process still holds the lock (re-taking it if it was only deleted). */
  check(): void;
  release(): void;
}

/** Which lock file this is: the same path can name a new file made by another process. */
interface FileIdentity {
  dev: number;
  ino: number;
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

const bootId = (): string | null => readOptional('/proc/sys/kernel/random/boot_id')?.trim() ?? null;

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
function processStat(pid: number): { state: string; start: string } | null {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's holder may still be running. Unknown hosts count as alive: we cannot check them. */
export function holderAlive(info: LockInfo): boolean {
  if (info.hostname !== hostname()) return true;
  const currentBoot = bootId();
  if (info.boot_id && currentBoot && info.boot_id !== currentBoot) return false;
  if (info.pid === process.pid) return true;
  if (!pidAlive(info.pid)) return false;
  const stat = processStat(info.pid);
  if (stat === null) return pidAlive(info.pid);
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return info.process_start === null || info.process_start === stat.start;
}

function parse(text: string | null): LockInfo | null {
  if (text === null) return null;
  try {
    const info = JSON.parse(text) as LockInfo;
    return typeof info.pid === 'number' ? info : null;
  } catch {
    return null;
  }
}

function tryCreate(path: string, info: LockInfo): FileIdentity | null {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(info));
    fsyncSync(fd);
    const { dev, ino } = fstatSync(fd);
    return { dev, ino };
  } finally {
    closeSync(fd);
  }
}

/** Reads who holds the data dir's lock, or null when nobody (or a dead process) does. */
export function readLiveLock(dataDir: string): LockInfo | null {
  const info = parse(readOptional(join(dataDir, LOCK_FILE)));
  return info && holderAlive(info) ? info : null;
}

export function acquireLock(dataDir: string, owner: LockOwner): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const stat = processStat(process.pid);
  const info: LockInfo = {
    pid: process.pid,
    hostname: hostname(),
    owner,
    started_at: new Date().toISOString(),
    boot_id: bootId(),
    process_start: stat?.start ?? null,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const identity = tryCreate(path, info);
    if (identity) return ownedLock(path, info, identity);
    const text = readOptional(path);
    const holder = parse(text);
    // A half-written lock (crash between create and write) has no holder to wait for.
    if (holder && holderAlive(holder)) throw new DataDirLockedError(dataDir, holder.pid);
    takeOverStale(path, text);
  }
  throw new DataDirLockedError(dataDir, parse(readOptional(path))?.pid ?? 0);
}

/**
 * Moves the stale lock aside, then checks that what was moved is the lock judged stale: if another
 * process replaced it in between, that live lock is put back.
 */
function takeOverStale(path: string, staleText: string | null): void {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readOptional(aside) === staleText) {
    unlinkSync(aside);
  } else {
    renameSync(aside, path);
  }
}

function ownedLock(path: string, info: LockInfo, created: FileIdentity): DataDirLock {
  let released = false;
  let lost = false;
  let identity = created;
  const dataDir = dirname(path);
  return {
    info,
    get lost() {
      return lost;
    },
    check() {
      if (lost) throw new DataDirLockLostError(dataDir);
      if (released) return;
      let current: FileIdentity;
      try {
        current = statSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // Deleted by hand and nobody else took it: take it back. O_EXCL fails if another process just did.
        const retaken = tryCreate(path, info);
        if (retaken) {
          identity = retaken;
          return;
        }
        current = { dev: -1, ino: -1 };
      }
      if (current.dev === identity.dev && current.ino === identity.ino) return;
      lost = true;
      throw new DataDirLockLostError(dataDir);
    },
    release() {
      if (released) return;
      released = true;
      if (lost) return;
      const current = parse(readOptional(path));
      if (current?.pid === info.pid && current.started_at === info.started_at) unlinkSync(path);
    },
  };
}
