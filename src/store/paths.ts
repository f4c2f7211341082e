/**
 * Keeps every file the store serves or writes inside the data dir, whatever the relative path says.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { UnsafePathError } from './errors.ts';

const inside = (root: string, candidate: string): boolean => {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** The deepest existing ancestor's real path, so a symlink anywhere along the way is followed. */
function realpathOfExisting(path: string): string {
  let current = path;
  for (;;) {
    try {
      return resolve(realpathSync(current), relative(current, path));
    } catch (error) {
      const parent = dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
      current = parent;
    }
  }
}

/** `realRoot` is the data dir's realpath, computed once by the caller. */
export function resolveInside(root: string, realRoot: string, relativePath: string): string {
  if (
    typeof relativePath !== 'string' ||
    relativePath === '' ||
    relativePath.includes('\0') ||
    isAbsolute(relativePath)
  ) {
    throw new UnsafePathError(String(relativePath));
  }
  const candidate = resolve(root, relativePath);
  if (!inside(root, candidate)) throw new UnsafePathError(relativePath);
  if (!inside(realRoot, realpathOfExisting(candidate))) throw new UnsafePathError(relativePath);
  return candidate;
}
