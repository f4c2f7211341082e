/** The database named by TUNESMITH_DATABASE_URL (or `migrate --to`) cannot be used: one sentence for the operator. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError' as const;
  constructor(
    readonly database: string,
    reason: string,
  ) {
    super(
      `Cannot use the PostgreSQL database ${database}: ${reason}. Check the URL (TUNESMITH_DATABASE_URL, or migrate's --to) and that the server runs.`,
    );
  }
}

/** The reasons worth a sentence rather than a stack: the server is not there, refuses us, or has no such database. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name cannot be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  '28P01': 'the password was refused',
  '28000': 'the server does not let this user in',
  '3D000': 'the database does not exist (create it first, for example with createdb)',
};

/** `error` as a DatabaseUnavailableError when it is one of the failures above; otherwise unchanged. */
export function describeConnectionError(error: unknown, url: string): unknown {
  const reason = REASONS[String((error as { code?: unknown } | undefined)?.code)];
  return reason ? new DatabaseUnavailableError(databaseName(url), reason) : error;
}

/** "name on host:port": never the password the URL may hold. */
export function databaseName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${decodeURIComponent(parsed.pathname.slice(1))} on ${parsed.host}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** The database already holds records: a copy would mix two services' data. */
export class DatabaseNotEmptyError extends Error {
  override name = 'DatabaseNotEmptyError' as const;
  constructor(held: string) {
    super(
      `The database is not empty (it holds ${held}): migrate copies only into an empty database, so nothing there is overwritten or mixed. Create a new database (for example: createdb tunesmith_new) and name it in --to.`,
    );
  }
}

/**
 * Why a query failed, when the cause is the database's state rather than the query: 'full' for PostgreSQL's
 * disk full (53100), 'unreachable' for a server that is down, starting, shutting down, out of connections or
 * resources (class 53, 57P01-57P03, class 08) or a connection refused or cut. Undefined for anything else.
 */
export function databaseUnavailable(error: unknown): 'full' | 'unreachable' | undefined {
  const code = String((error as { code?: unknown } | undefined)?.code ?? '');
  if (code === '53100') return 'full';
  if (
    code.startsWith('53') ||
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)
  )
    return 'unreachable';
  // node-postgres's own words when the server closes a connection under a query (no code).
  const message = error instanceof Error ? error.message : '';
  if (
    /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message) ||
    message === 'Client has encountered a connection error and is not queryable'
  )
    return 'unreachable';
  return undefined;
}
