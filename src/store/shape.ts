/**
 * Checks of what a data file holds, as read back from disk: only what the code relies on when it loads
 * (the containers, ids and the fields the indexes use). Each returns the first problem found, or null.
 */
export type Problem = string | null;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` must be an object whose listed fields are strings. */
export function stringFields(value: unknown, fields: readonly string[], what: string): Problem {
  if (!isRecord(value)) return `${what} is not an object`;
  const missing = fields.find((field) => typeof value[field] !== 'string');
  return missing === undefined ? null : `${what} has no string "${missing}"`;
}

/** `data[field]` must be an array (or absent, when `optional`) of records that pass `check`. */
export function arrayOf(
  data: Record<string, unknown>,
  field: string,
  check: (item: unknown, what: string) => Problem,
  optional = false,
): Problem {
  const items = data[field];
  if (items === undefined && optional) return null;
  if (!Array.isArray(items)) return `"${field}" is not a list`;
  for (const [at, item] of items.entries()) {
    const problem = check(item, `${field}[${at}]`);
    if (problem) return problem;
  }
  return null;
}

/** The problems of a whole file's object, checking each listed array field. */
export function recordOfArrays(value: unknown, fields: Record<string, readonly string[]>, optional = false): Problem {
  if (!isRecord(value)) return `it holds ${value === null ? 'null' : typeof value} instead of an object`;
  for (const [field, strings] of Object.entries(fields)) {
    const problem = arrayOf(value, field, (item, what) => stringFields(item, strings, what), optional);
    if (problem) return problem;
  }
  return null;
}
