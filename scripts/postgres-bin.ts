/**
 * Where Debian keeps PostgreSQL's server programs: `initdb`, `pg_ctl` and `postgres` are not on PATH there but in
 * /usr/lib/postgresql/<version>/bin. Used by npm test's tool check and by the tests' throwaway cluster.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The directory holding `initdb` and `postgres`: PATH first, then Debian's versioned dirs, newest first. */
export function postgresBinDir(path = process.env.PATH ?? '', root = '/usr/lib/postgresql'): string | undefined {
  for (const dir of path.split(':')) {
    if (dir !== '' && serverIn(dir)) return dir;
  }
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find(serverIn);
}

function serverIn(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
}
