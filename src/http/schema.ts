/**
 * Request schemas (zod) and the one way they are applied: a body or query is described once, giving its
 * TypeScript type (z.infer), its validation and its OpenAPI description (z.toJSONSchema). The first problem
 * found becomes the ValidationError a client sees: the field at fault as `param`, a stable code, and a sentence
 * saying what to send instead.
 *
 * Sentences are made when the failure is reported, from the field's full place in the body ("prompt",
 * "sections[2].energy"), so one schema serves a field wherever it sits.
 */
import { z } from 'zod';
import { ValidationError } from '../domain/errors.ts';

/** What a custom check carries: the error code, and the sentence given the field's name. */
interface Problem {
  code: string;
  say: (name: string) => string;
}

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/** `sections[2].energy` from ['sections', 2, 'energy']. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, part) =>
      typeof part === 'number' ? `${name}[${part}]` : name === '' ? String(part) : `${name}.${String(part)}`,
    '',
  );
}

/** Adds a failure with its code and sentence to a check's context. */
export function refuse(ctx: z.RefinementCtx, code: string, say: Problem['say']): void {
  ctx.addIssue({ code: 'custom', params: { code, say } satisfies Problem });
}

/** "null", "an array", "an object", "a string"…: what a wrong value is, in a sentence. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A zod error customiser for a field of one type: `"name" is required.` when absent, `"name" must be <expected>,
 * not <what it is>.` otherwise. `quoted` false names it bare, as plan sections do ("sections[0].bars"); `required`
 * is the sentence for an absent field when it should say more.
 */
export function typeError(expected: string, options: { quoted?: boolean; required?: string } = {}) {
  const quoted = options.quoted ?? true;
  return (issue: RawIssue): string | undefined => {
    if (issue.code !== 'invalid_type') return undefined;
    const name = shown(issue.path ?? [], quoted);
    if (issue.input === undefined || issue.input === null) return options.required ?? `${name} is required.`;
    if (issue.expected === 'int' && typeof issue.input === 'number' && Number.isFinite(issue.input))
      return `${name} must be an integer, not ${issue.input}.`;
    return `${name} must be ${expected}, not ${typeName(issue.input)}.`;
  };
}

const shown = (path: readonly PropertyKey[], quoted: boolean): string =>
  quoted ? `"${fieldName(path)}"` : fieldName(path);

/** Objects refuse fields they do not name, with the list of those they do. */
export function strictBody<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown field "${issue.keys[0]}". Allowed fields: ${allowed}.` : undefined,
  });
}

/**
 * Validates `input`, returning the schema's output or throwing the first problem as a ValidationError. Unknown
 * fields come before any other problem of the object that has them, as a reader that lists them first would.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true, error: customMessage });
  if (result.success) return result.data;
  throw asValidationError(result.error.issues);
}

function customMessage(issue: RawIssue): string | undefined {
  if (issue.code !== 'custom') return undefined;
  const problem = issue.params as Problem | undefined;
  return problem?.say(fieldName(issue.path ?? []));
}

function asValidationError(issues: readonly Issue[]): ValidationError {
  const [first] = issues;
  if (first === undefined) return new ValidationError(undefined, 'The request is not valid.');
  const unknown = issues.find(
    (issue) => issue.code === 'unrecognized_keys' && issue.path.every((part, i) => first.path[i] === part),
  );
  const issue = unknown ?? first;
  if (issue.code === 'unrecognized_keys')
    return new ValidationError(fieldName([...issue.path, issue.keys[0] ?? '']), issue.message, 'unknown_field');
  return new ValidationError(fieldName(issue.path), issue.message, codeOf(issue));
}

function codeOf(issue: Issue): string {
  switch (issue.code) {
    case 'custom':
      return (issue.params as Problem | undefined)?.code ?? 'invalid_value';
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? 'missing_field' : 'invalid_type';
    case 'too_small':
    case 'too_big':
      return 'out_of_range';
    default:
      return 'invalid_value';
  }
}

/**
 * The JSON Schemas (2020-12, as OpenAPI 3.1 uses) of what clients send, by their names under components/schemas;
 * a schema named here that another contains is referred to by name.
 */
export function requestComponents(named: Record<string, z.ZodType>): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema as Record<string, unknown>]),
  );
}
