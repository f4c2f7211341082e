import { ValidationError } from './errors.ts';

/**
 * Query parameters read strictly: only the named ones, each at most once. Koa's ctx.query would turn
 * a repeated parameter into an array and let unknown ones through silently.
 */
export function readQuery(querystring: string, allowed: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (!allowed.includes(name)) {
      throw new ValidationError(
        name,
        `Unknown query parameter "${name}". Allowed: ${allowed.join(', ')}.`,
        'unknown_parameter',
      );
    }
    if (values.has(name))
      throw new ValidationError(
        name,
        `The query parameter "${name}" is given more than once. Give it once.`,
        'duplicate_parameter',
      );
    values.set(name, value);
  }
  return values;
}

/** A plain decimal integer in [min, max] (no sign, no exponent, no fraction). */
export function readQueryInteger(
  values: Map<string, string>,
  name: string,
  rule: { min: number; max: number; fallback: number },
): number {
  const raw = values.get(name);
  if (raw === undefined) return rule.fallback;
  if (!/^\d{1,15}$/.test(raw))
    throw new ValidationError(
      name,
      `"${name}" must be a whole number from ${rule.min} to ${rule.max}.`,
      'invalid_type',
    );
  const value = Number(raw);
  if (value < rule.min || value > rule.max)
    throw new ValidationError(name, `"${name}" must be from ${rule.min} to ${rule.max}, not ${value}.`, 'out_of_range');
  return value;
}

export function readQueryEnum<T extends string>(
  values: Map<string, string>,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = values.get(name);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ValidationError(name, `"${name}" must be one of ${allowed.join(', ')}.`, 'invalid_value');
  }
  return raw as T;
}
