/**
 * Parsed JSON as tests and benches read it (a response body, a log line, a data file): fields looked up freely,
 * the way `Response.json()` already hands them out, and checked by the assertions that read them.
 */
// biome-ignore lint/suspicious/noExplicitAny: read like Response.json(); each field is checked where a test reads it
export type Json = Record<string, any>;
