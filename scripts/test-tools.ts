/**
 * The first step of `npm test`. The audio tests use Debian tools as independent analysers and the browser tests
 * drive Debian's chromium: missing ones are installed when that is possible (root, with apt-get), otherwise the
 * run stops here, in its first seconds, with one sentence naming them, instead of failing or timing out later.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBinDir } from './postgres-bin.ts';

export interface Tool {
  /** The Debian package that provides it. */
  package: string;
  /** Commands looked up on PATH, or absolute paths of files the package installs. */
  provides: string[];
  /** Finds the tool where `provides` cannot say it (PostgreSQL's versioned dir); replaces the `provides` check. */
  found?: (path: string) => boolean;
}

export const TOOLS: readonly Tool[] = [
  { package: 'ffmpeg', provides: ['ffmpeg'] },
  { package: 'sox', provides: ['sox'] },
  { package: 'aubio-tools', provides: ['aubio', 'aubioonset', 'aubiotrack'] },
  { package: 'bpm-tools', provides: ['bpm'] },
  { package: 'chromium', provides: ['chromium'] },
  { package: 'fonts-dejavu-core', provides: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'] },
  // The backend tests start a throwaway cluster with the server's initdb and pg_ctl.
  {
    package: 'postgresql',
    provides: ['initdb', 'pg_ctl', 'postgres'],
    found: (path) => postgresBinDir(path) !== undefined,
  },
];

export interface EnsureToolsOptions {
  /** The PATH to look commands up on (apt-get too). */
  path: string;
  /** Whether this process may install packages. */
  root: boolean;
  tools?: readonly Tool[];
  /** Runs a command with its output shown; returns its exit code. */
  run?: (command: string, args: string[]) => number | null;
  /** @default console.error */
  log?: (line: string) => void;
}

export type EnsureToolsResult = { ok: true; installed: string[] } | { ok: false; message: string };

export function missingTools(path: string, tools: readonly Tool[] = TOOLS): Tool[] {
  return tools.filter(
    (tool) =>
      !(tool.found
        ? tool.found(path)
        : tool.provides.every((thing) => (isAbsolute(thing) ? readable(thing) : onPath(thing, path)))),
  );
}

export function ensureTools(options: EnsureToolsOptions): EnsureToolsResult {
  const tools = options.tools ?? TOOLS;
  const missing = missingTools(options.path, tools);
  if (missing.length === 0) return { ok: true, installed: [] };
  const packages = missing.map((tool) => tool.package);
  const install = `apt-get install ${packages.join(' ')}`;
  if (!options.root || !onPath('apt-get', options.path)) {
    return {
      ok: false,
      message: `npm test needs ${listed(packages)}, which ${packages.length === 1 ? 'is' : 'are'} not installed: run \`sudo ${install}\` (or npm test as root, which installs ${packages.length === 1 ? 'it' : 'them'}).`,
    };
  }
  const run = options.run ?? ((command, args) => runShown(command, args, options.path));
  (options.log ?? console.error)(`npm test: installing ${listed(packages)} with apt-get…`);
  const updated = run('apt-get', ['update', '-qq']) === 0;
  const installed = updated && run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages]) === 0;
  const still = missingTools(options.path, tools).map((tool) => tool.package);
  if (!installed || still.length > 0) {
    return {
      ok: false,
      message: `npm test needs ${listed(still.length > 0 ? still : packages)}, and \`${install}\` did not install ${packages.length === 1 ? 'it' : 'them'}: see apt-get's output above.`,
    };
  }
  return { ok: true, installed: packages };
}

function onPath(command: string, path: string): boolean {
  return path.split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)));
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function runShown(command: string, args: string[], path: string): number | null {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PATH: path, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.error ? null : result.status;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = ensureTools({ path: process.env.PATH ?? '', root: process.getuid?.() === 0 });
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
}
