/**
 * Small readers for untrusted JSON fields. Request data is `unknown` until one of these has looked at it;
 * each failure is a ValidationError naming the field and saying what to send instead.
 */
import { ValidationError } from './errors.ts';

type Body = Record<string, unknown>;

export function rejectUnknownFields(body: Body, allowed: readonly string[]): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) {
      throw new ValidationError(
        name,
        `Unknown field "${name}". Allowed fields: ${allowed.join(', ')}.`,
        'unknown_field',
      );
    }
  }
}

/** `null` counts as absent for optional fields, so clients may send every key. */
function present(body: Body, name: string): boolean {
  return Object.hasOwn(body, name) && body[name] !== null;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function wrongType(name: string, expected: string, value: unknown): ValidationError {
  return new ValidationError(name, `"${name}" must be ${expected}, not ${typeName(value)}.`, 'invalid_type');
}

// C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
const FORBIDDEN_CONTROL = /(?![\t\n\r])\p{Cc}/u;

// In a /u regex a paired surrogate is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

export interface TextRule {
  required?: boolean;
  minChars?: number;
  maxChars: number;
}

/** A trimmed string of `minChars`–`maxChars` Unicode characters, without control characters other than \t \n \r. */
export function readText(body: Body, name: string, rule: TextRule & { required: true }): string;
export function readText(body: Body, name: string, rule: TextRule): string | undefined;
export function readText(body: Body, name: string, rule: TextRule): string | undefined {
  if (!present(body, name)) {
    if (rule.required) throw new ValidationError(name, `"${name}" is required.`, 'missing_field');
    return undefined;
  }
  const value = body[name];
  if (typeof value !== 'string') throw wrongType(name, 'a string', value);
  checkCharacters(name, value);
  const text = value.trim();
  const chars = countChars(text);
  const min = rule.minChars ?? 1;
  if (chars < min) throw new ValidationError(name, `"${name}" must not be empty.`, 'out_of_range');
  if (chars > rule.maxChars)
    throw new ValidationError(
      name,
      `"${name}" is ${chars} characters long; the limit is ${rule.maxChars}.`,
      'out_of_range',
    );
  return text;
}

/** Refuses unpaired surrogates and control characters other than \t \n \r, naming the field as `"name"`. */
export function checkCharacters(name: string, value: string, shown = `"${name}"`): void {
  if (LONE_SURROGATE.test(value))
    throw new ValidationError(
      name,
      `${shown} contains an unpaired UTF-16 surrogate. Send valid Unicode text.`,
      'invalid_encoding',
    );
  if (FORBIDDEN_CONTROL.test(value)) {
    throw new ValidationError(
      name,
      `${shown} contains a control character. Only tab and line breaks are allowed.`,
      'invalid_characters',
    );
  }
}

/** Code points, so an emoji counts once. */
export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export interface NumberRule {
  min: number;
  max: number;
  integer?: boolean;
  unit?: string;
}

export function readNumber(body: Body, name: string, rule: NumberRule): number | undefined {
  if (!present(body, name)) return undefined;
  const value = body[name];
  const kind = rule.integer ? 'an integer' : 'a number';
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(name, kind, value);
  if (rule.integer && !Number.isInteger(value))
    throw new ValidationError(name, `"${name}" must be an integer, not ${value}.`, 'invalid_type');
  if (value < rule.min || value > rule.max) {
    const unit = rule.unit ? ` ${rule.unit}` : '';
    throw new ValidationError(
      name,
      `"${name}" must be between ${rule.min} and ${rule.max}${unit}, not ${value}.`,
      'out_of_range',
    );
  }
  return value;
}

/** A number from a short list ("sample_rate": 44100 or 48000). */
export function readChoice<T extends number>(
  body: Body,
  name: string,
  allowed: readonly T[],
  unit?: string,
): T | undefined {
  if (!present(body, name)) return undefined;
  const value = body[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(name, 'a number', value);
  if (!allowed.includes(value as T)) {
    const suffix = unit ? ` ${unit}` : '';
    throw new ValidationError(
      name,
      `"${name}" must be one of ${allowed.join(', ')}${suffix}, not ${value}.`,
      'out_of_range',
    );
  }
  return value as T;
}

export function readBoolean(body: Body, name: string): boolean | undefined {
  if (!present(body, name)) return undefined;
  const value = body[name];
  if (typeof value !== 'boolean') throw wrongType(name, 'true or false', value);
  return value;
}

/** An absolute http(s) URL without credentials. */
export function readHttpUrl(body: Body, name: string, maxChars: number): string | undefined {
  const text = readText(body, name, { maxChars });
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(
      name,
      `"${name}" is not a valid absolute URL. Send one like https://example.com/hook.`,
      'invalid_url',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ValidationError(
      name,
      `"${name}" must be an http or https URL, not ${url.protocol.slice(0, -1)}.`,
      'invalid_url',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError(name, `"${name}" must not contain a user name or password.`, 'invalid_url');
  }
  // The URL parser drops tabs and line breaks: store what it read, never a raw CR or LF.
  return /[\t\n\r]/.test(text) ? url.href : text;
}
