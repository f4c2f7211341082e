/**
 * Reads every generation file at open. Synchronous on purpose: nothing else runs during open, and
 * sync reads of many small files are several times faster than promise-based ones. Temp files left by
 * a crash mid-write are removed, as the target they were meant to replace is still whole. A file that
 * is not a generation record (cut short, null, the wrong shape, in the wrong place) is moved aside to
 * quarantine/, with a warning naming it: one bad record must neither stop the start nor vanish unseen.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_SUFFIX } from './atomic-file.ts';
import { isRecord, stringFields, type Problem } from './shape.ts';
import type { Generation, GenerationStatus } from '../domain/model.ts';
import type { WebhookEvent } from '../domain/webhooks/types.ts';

export interface IdempotencyRecord {
  key: string;
  bodyHash: string;
}

/** Where one of an event's deliveries goes, as recorded with the event. */
export interface StoredTarget {
  id: string;
  endpoint_id: string | null;
  url: string;
}

/** A webhook event as its generation's file holds it: committed with the transition that caused it. */
export type StoredEvent = WebhookEvent & { deliveries: StoredTarget[] };

/**
 * A generation as written on disk: the idempotency record and the webhook events of its transitions travel
 * with it, so each lands in the same atomic write as the change it belongs to. Files written before events
 * moved here have no webhook_events (their events are in webhooks.json alone).
 */
export type StoredGeneration = Generation & { idempotency?: IdempotencyRecord; webhook_events?: StoredEvent[] };

/**
 * What is left of a deleted generation: no prompt, lyrics or audio, only what keeps its month's quota
 * spent across restarts.
 */
export interface DeletedGeneration {
  id: string;
  account_id: string;
  status: Generation['status'];
  quota_month: string;
  created_at: string;
  deleted_at: string;
}

export const isDeleted = (stored: StoredGeneration | DeletedGeneration): stored is DeletedGeneration =>
  'deleted_at' in stored;

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const STATUSES: readonly GenerationStatus[] = ['pending', 'processing', 'completed', 'failed'];
const COMMON_FIELDS = ['id', 'account_id', 'status', 'quota_month', 'created_at'] as const;

/** The fields the store's indexes rely on, and the file's own name and folder agreeing with its ids. */
function checkGeneration(value: unknown, accountDir: string, name: string): Problem {
  if (!isRecord(value)) return `it holds ${value === null ? 'null' : typeof value} instead of a generation`;
  const problem = stringFields(
    value,
    'deleted_at' in value ? [...COMMON_FIELDS, 'deleted_at'] : [...COMMON_FIELDS, 'prompt'],
    'the record',
  );
  if (problem) return problem;
  if (!STATUSES.includes(value.status as GenerationStatus)) return `its status "${String(value.status)}" is unknown`;
  if (`${String(value.id)}.json` !== name || value.account_id !== accountDir)
    return 'its id or account does not match where it is';
  return null;
}

/** The record, or what is wrong with the file; undefined when it could not be read at all (it stays put). */
function parse(
  path: string,
  accountDir: string,
  name: string,
  warn: (message: string) => void,
): StoredGeneration | DeletedGeneration | string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    warn(`Skipped unreadable generation file ${path}: ${(error as Error).message}`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not valid JSON, perhaps cut short';
  }
  return checkGeneration(value, accountDir, name) ?? (value as StoredGeneration | DeletedGeneration);
}

export function loadGenerationFiles(
  root: string,
  quarantine: string,
  warn: (message: string) => void,
): (StoredGeneration | DeletedGeneration)[] {
  const loaded: (StoredGeneration | DeletedGeneration)[] = [];
  for (const accountDir of listDir(root)) {
    for (const name of listDir(join(root, accountDir))) {
      const path = join(root, accountDir, name);
      if (name.endsWith(TEMP_SUFFIX)) {
        rmSync(path, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      const record = parse(path, accountDir, name, warn);
      if (record === undefined) continue;
      if (typeof record !== 'string') {
        loaded.push(record);
        continue;
      }
      const aside = join(quarantine, accountDir, name);
      mkdirSync(join(quarantine, accountDir), { recursive: true });
      renameSync(path, aside);
      warn(
        `Moved the damaged generation file ${path} to ${aside} (${record}); its task is left out, and its audio, if any, stays in audio/${accountDir}/.`,
      );
    }
  }
  return loaded;
}
