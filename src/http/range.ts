export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * One `bytes=` range of a file of `size` bytes. Returns undefined when the whole file should be sent
 * (no header, another unit, several ranges, or a syntax we do not follow: RFC 9110 lets a server
 * ignore those) and 'unsatisfiable' when the range lies outside the file.
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
