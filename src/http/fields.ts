/**
 * The field types of request bodies, as zod schemas with today's sentences: each names the field and says what to
 * send instead. Optional fields add `.nullish()`: `null` counts as absent, so clients may send every key.
 */
import { z } from 'zod';
import { fieldName, refuse, typeError } from './schema.ts';

// C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
const FORBIDDEN_CONTROL = /(?![\t\n\r])\p{Cc}/u;

// In a /u regex a paired surrogate is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Code points, so an emoji counts once. */
export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Refuses unpaired surrogates and control characters other than \t \n \r; `quoted` names the field in quotes. */
export function checkCharacters(value: string, ctx: z.RefinementCtx, quoted = true): void {
  const name = (field: string) => (quoted ? `"${field}"` : field);
  if (LONE_SURROGATE.test(value))
    refuse(
      ctx,
      'invalid_encoding',
      (f) => `${name(f)} contains an unpaired UTF-16 surrogate. Send valid Unicode text.`,
    );
  else if (FORBIDDEN_CONTROL.test(value))
    refuse(
      ctx,
      'invalid_characters',
      (f) => `${name(f)} contains a control character. Only tab and line breaks are allowed.`,
    );
}

/** A trimmed string of `minChars` (default 1) to `maxChars` Unicode characters, without control characters. */
export function text(rule: { minChars?: number; maxChars: number; required?: string }) {
  const min = rule.minChars ?? 1;
  return z
    .string({ error: typeError('a string', { required: rule.required }) })
    .superRefine((value, ctx) => checkCharacters(value, ctx))
    .overwrite((value) => value.trim())
    .superRefine((value, ctx) => {
      const chars = countChars(value);
      if (chars < min) refuse(ctx, 'out_of_range', (f) => `"${f}" must not be empty.`);
      else if (chars > rule.maxChars)
        refuse(ctx, 'out_of_range', (f) => `"${f}" is ${chars} characters long; the limit is ${rule.maxChars}.`);
    })
    .meta({ minLength: min, maxLength: rule.maxChars });
}

export interface NumberRule {
  min: number;
  max: number;
  integer?: boolean;
  unit?: string;
}

/** A number (or an integer) in [min, max]. */
export function number(rule: NumberRule) {
  const unit = rule.unit ? ` ${rule.unit}` : '';
  const range = {
    error: (issue: z.core.$ZodRawIssue) =>
      `"${fieldName(issue.path ?? [])}" must be between ${rule.min} and ${rule.max}${unit}, not ${String(issue.input)}.`,
  };
  const base = rule.integer ? z.int({ error: typeError('an integer') }) : z.number({ error: typeError('a number') });
  return base.min(rule.min, range).max(rule.max, range);
}

/** A number from a short list ("sample_rate": 44100 or 48000), with the default an absent one stands for. */
export function choice<const T extends readonly number[]>(allowed: T, unit?: string, fallback?: T[number]) {
  const suffix = unit ? ` ${unit}` : '';
  return (
    z
      .number({ error: typeError('a number') })
      .superRefine((value, ctx) => {
        if (!allowed.includes(value))
          refuse(ctx, 'out_of_range', (f) => `"${f}" must be one of ${allowed.join(', ')}${suffix}, not ${value}.`);
      })
      // Before the transform: zod leaves a pipe's default out of the input's JSON Schema.
      .meta({ enum: [...allowed], ...(fallback === undefined ? {} : { default: fallback }) })
      .transform((value) => value as T[number])
  );
}

export const boolean = () => z.boolean({ error: typeError('true or false') });

/** An absolute http(s) URL without credentials. */
export function httpUrl(maxChars: number, required?: string) {
  return text({ maxChars, required })
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return refuse(
          ctx,
          'invalid_url',
          (f) => `"${f}" is not a valid absolute URL. Send one like https://example.com/hook.`,
        );
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        refuse(ctx, 'invalid_url', (f) => `"${f}" must be an http or https URL, not ${url.protocol.slice(0, -1)}.`);
      else if (url.username !== '' || url.password !== '')
        refuse(ctx, 'invalid_url', (f) => `"${f}" must not contain a user name or password.`);
    })
    .meta({ format: 'uri' });
}
