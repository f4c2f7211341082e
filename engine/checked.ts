/**
 * Reads that the code's own logic guarantees: an index inside the array it was computed from, a key
 * that was just put in the map. With noUncheckedIndexedAccess each such read is `T | undefined`; where an
 * absence can only be a bug, these throw at once with what was missing instead of letting undefined
 * travel on into a NaN pitch or a silent part.
 */

/** The item at `index`; throws when there is none. */
export function at<T>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`No item at index ${index} of ${items.length}`);
  return item;
}

/** The last item; throws on an empty array. */
export function last<T>(items: ArrayLike<T>): T {
  return at(items, items.length - 1);
}

/** `value`, or a throw naming `what` was missing. */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Missing ${what}`);
  return value;
}
