/**
 * Query strings described as zod schemas, read strictly: only the parameters the schema names, each at most once
 * (Koa's ctx.query would turn a repeated parameter into an array and let unknown ones through silently). The same
 * schema gives the route's OpenAPI parameters (queryParameters).
 */
import { z } from 'zod';
import { ValidationError } from '../domain/errors.ts';
import { parseWith, refuse } from './schema.ts';

type QueryShape = Record<string, z.ZodType<unknown, string | undefined>>;

export function parseQuery<Shape extends QueryShape>(
  querystring: string,
  schema: z.ZodObject<Shape>,
): z.output<z.ZodObject<Shape>> {
  const allowed = Object.keys(schema.shape);
  const values: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (!allowed.includes(name)) {
      throw new ValidationError(
        name,
        `Unknown query parameter "${name}". Allowed: ${allowed.join(', ')}.`,
        'unknown_parameter',
      );
    }
    if (Object.hasOwn(values, name))
      throw new ValidationError(
        name,
        `The query parameter "${name}" is given more than once. Give it once.`,
        'duplicate_parameter',
      );
    values[name] = value;
  }
  return parseWith(schema, values);
}

/** A plain decimal integer in [min, max] (no sign, no exponent, no fraction); `fallback` when absent. */
export function queryInteger(rule: { min: number; max: number; fallback: number }) {
  // Before the transform: zod leaves a pipe's default and examples out of the input's JSON Schema.
  return z
    .string()
    .optional()
    .meta({ type: 'integer', minimum: rule.min, maximum: rule.max, default: rule.fallback })
    .transform((raw, ctx) => {
      if (raw === undefined) return rule.fallback;
      if (!/^\d{1,15}$/.test(raw)) {
        refuse(ctx, 'invalid_type', (name) => `"${name}" must be a whole number from ${rule.min} to ${rule.max}.`);
        return z.NEVER;
      }
      const value = Number(raw);
      if (value < rule.min || value > rule.max) {
        refuse(ctx, 'out_of_range', (name) => `"${name}" must be from ${rule.min} to ${rule.max}, not ${value}.`);
        return z.NEVER;
      }
      return value;
    });
}

/** One of a few words, or undefined when absent. */
export function queryEnum<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z
    .enum(allowed, {
      error: (issue) => `"${String(issue.path?.at(-1))}" must be one of ${allowed.join(', ')}.`,
    })
    .optional();
}

/** The OpenAPI parameters of a query schema, with the descriptions its fields carry. */
export function queryParameters(
  schema: z.ZodObject<QueryShape>,
): { name: string; in: 'query'; description?: string; schema: Record<string, unknown> }[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Record<string, unknown>>;
  };
  return Object.entries(json.properties).map(([name, { description, ...fieldSchema }]) => ({
    name,
    in: 'query' as const,
    ...(typeof description === 'string' ? { description } : {}),
    schema: fieldSchema,
  }));
}
