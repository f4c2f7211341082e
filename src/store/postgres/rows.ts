/**
 * Rows of the PostgreSQL schema (migrations.ts) to the records the Repository hands out, and back. Timestamps are
 * timestamptz in the database and ISO strings in records; bigints come back as strings and are numbers again here.
 */
import type { QueryResultRow } from 'pg';
import type { Credential } from '../credentials.ts';
import type { Account, ApiKey, Generation, PlanName } from '../../domain/model.ts';
import type {
  AccountSecret,
  DeliveryAttempt,
  EventType,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from '../../domain/webhooks/types.ts';

/** What a query on a pool, a client or a transaction's client offers: all this module's code needs. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount?: number | null }>;
}

/** A row as node-postgres gives it: columns by name, typed by the query that read them. */
type Row = QueryResultRow;

/** The row a statement always returns (INSERT … RETURNING, count(*), a read-back after an upsert): none is a bug. */
export function oneRow(rows: readonly Row[]): Row {
  const [row] = rows;
  if (!row) throw new Error('a statement that always returns a row returned none');
  return row;
}

export const iso = (value: Date | null | undefined): string | null => (value ? value.toISOString() : null);
const isoRequired = (value: Date): string => value.toISOString();
/** jsonb parameters go as text: node-postgres would send a JS array as a Postgres array. */
export const json = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

export const toAccount = (r: Row): Account => ({
  id: r.id,
  email: r.email,
  name: r.name,
  plan: r.plan as PlanName,
  rpm: r.rpm,
  monthly: r.monthly,
  created_at: isoRequired(r.created_at),
});

export const toKey = (r: Row): ApiKey => ({
  id: r.id,
  account_id: r.account_id,
  name: r.name,
  prefix: r.prefix,
  hash: r.hash,
  created_at: isoRequired(r.created_at),
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
});

export const GENERATION_COLUMNS =
  'id, account_id, status, prompt, duration, style, instrumental, seed, lyrics, callback_url, created_at, started_at, completed_at, attempts, title, quota_month, request_id, stems, loop, metadata, files, encoding, error, music, plan, batch, source, custom_style';

/** The optional fields appear only when set, as in the records the file store keeps. */
export const toGeneration = (r: Row): Generation => ({
  id: r.id,
  account_id: r.account_id,
  status: r.status,
  prompt: r.prompt,
  duration: r.duration,
  style: r.style,
  instrumental: r.instrumental,
  seed: Number(r.seed),
  lyrics: r.lyrics,
  callback_url: r.callback_url,
  created_at: isoRequired(r.created_at),
  started_at: iso(r.started_at),
  completed_at: iso(r.completed_at),
  attempts: r.attempts,
  title: r.title,
  metadata: r.metadata,
  files: r.files,
  error: r.error,
  quota_month: r.quota_month,
  request_id: r.request_id,
  ...(r.encoding ? { encoding: r.encoding } : {}),
  ...(r.stems ? { stems: true } : {}),
  ...(r.loop ? { loop: true } : {}),
  ...(r.music ? { music: r.music } : {}),
  ...(r.plan ? { plan: r.plan } : {}),
  ...(r.batch ? { batch: r.batch } : {}),
  ...(r.source ? { source: r.source } : {}),
  ...(r.custom_style ? { custom_style: r.custom_style } : {}),
});

/** Generation fields a patch may set -> how each is sent as a parameter. */
export const GENERATION_PATCHABLE: Readonly<Record<string, (value: unknown) => unknown>> = {
  status: (v) => v,
  prompt: (v) => v,
  duration: (v) => v,
  style: (v) => v ?? null,
  instrumental: (v) => v,
  seed: (v) => v,
  lyrics: (v) => v ?? null,
  callback_url: (v) => v ?? null,
  started_at: (v) => v ?? null,
  completed_at: (v) => v ?? null,
  attempts: (v) => v,
  title: (v) => v ?? null,
  request_id: (v) => v ?? null,
  stems: (v) => v === true,
  loop: (v) => v === true,
  metadata: json,
  files: json,
  encoding: json,
  error: json,
  music: json,
  plan: json,
  batch: json,
  source: json,
  custom_style: json,
};

export const toCredential = (r: Row): Credential => ({
  account_id: r.account_id,
  email: r.email,
  password: r.password,
  created_at: isoRequired(r.created_at),
});

export const toEndpoint = (r: Row): WebhookEndpoint => ({
  id: r.id,
  account_id: r.account_id,
  url: r.url,
  events: r.events as EventType[],
  description: r.description,
  created_at: isoRequired(r.created_at),
  failing_since: iso(r.failing_since),
  disabled_at: iso(r.disabled_at),
  disabled_reason: r.disabled_reason,
});

export const ENDPOINT_PATCHABLE: Readonly<Record<string, (value: unknown) => unknown>> = {
  url: (v) => v,
  events: json,
  description: (v) => v ?? null,
  created_at: (v) => v,
  failing_since: (v) => v ?? null,
  disabled_at: (v) => v ?? null,
  disabled_reason: (v) => v ?? null,
};

export const toSecret = (r: Row): AccountSecret => ({
  account_id: r.account_id,
  secret: r.secret,
  previous: r.previous,
  previous_expires_at: iso(r.previous_expires_at),
  created_at: isoRequired(r.created_at),
});

export const toEvent = (r: Row): WebhookEvent => ({
  id: r.id,
  type: r.type as EventType,
  account_id: r.account_id,
  generation_id: r.generation_id,
  created_at: isoRequired(r.created_at),
  transition_at: iso(r.transition_at),
});

export const toDelivery = (r: Row): WebhookDelivery => ({
  id: r.id,
  event_id: r.event_id,
  account_id: r.account_id,
  endpoint_id: r.endpoint_id,
  url: r.url,
  state: r.state,
  attempts: r.attempts as DeliveryAttempt[],
  round_attempts: r.round_attempts,
  next_attempt_at: iso(r.next_attempt_at),
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});

export const DELIVERY_PATCHABLE: Readonly<Record<string, (value: unknown) => unknown>> = {
  endpoint_id: (v) => v ?? null,
  url: (v) => v,
  state: (v) => v,
  attempts: json,
  round_attempts: (v) => v,
  next_attempt_at: (v) => v ?? null,
  created_at: (v) => v,
  updated_at: (v) => v,
};

/**
 * "SET a = $2, b = $3" for the fields of `patch` that `allowed` names (others are ignored, as a patch may carry
 * fields that never change), with their values; parameters start after `offset`. Undefined values are skipped.
 */
export function setClause(
  patch: Record<string, unknown>,
  allowed: Readonly<Record<string, (value: unknown) => unknown>>,
  offset: number,
): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const [field, value] of Object.entries(patch)) {
    const encode = allowed[field];
    if (!encode || value === undefined) continue;
    values.push(encode(value));
    parts.push(`${field} = $${offset + values.length}`);
  }
  return { sql: parts.join(', '), values };
}

/** True for a unique-constraint violation (23505). */
export const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | undefined)?.code === '23505';
