/**
 * Start-up failures a person can fix, said in their terms. A database that cannot be
 * reached used to surface as "database migration failed: caused by: connect
 * ECONNREFUSED", which reads like a bug in a migration, and a busy port as a bare
 * EADDRINUSE. `explainStartupError` recognises those causes and returns a StartupError
 * whose message names the host and port (never the URL's password) and the flag to
 * change; anything it does not recognise is returned unchanged.
 */
import { isPostgresUrl } from './config.js';

export class StartupError extends Error {
  readonly code = 'STARTUP_FAILED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

// Node's network error codes: nothing answers at the address --db names.
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

// PostgreSQL's SQLSTATE codes for a server that answers but refuses the login or database.
const REFUSED: Readonly<Record<string, string>> = {
  '28P01': 'the password was refused',
  '28000': 'the login was refused',
  '3D000': 'no such database',
};

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 8; depth++) {
    if ('code' in current && typeof current.code === 'string') codes.push(current.code);
    if (current instanceof AggregateError)
      for (const inner of current.errors) codes.push(...errorCodes(inner));
    current = 'cause' in current ? current.cause : undefined;
  }
  return codes;
}

/** `host:port` of a postgres:// URL, without user, password or database. */
export function databaseAddress(db: string): string {
  try {
    const url = new URL(db);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
  } catch {
    return 'the address in --db';
  }
}

export interface StartupContext {
  db: string;
  port: number;
}

export function explainStartupError(error: unknown, context: StartupContext): unknown {
  const codes = errorCodes(error);
  if (codes.includes('EADDRINUSE'))
    return new StartupError(
      `port ${context.port} is in use; pass --port (another port, or --port 0 for any free one)`,
      { cause: error },
    );
  if (!isPostgresUrl(context.db)) return error;
  const at = `cannot connect to the database at ${databaseAddress(context.db)}`;
  const unreachable = codes.map((code) => UNREACHABLE[code]).find((text) => text !== undefined);
  if (unreachable !== undefined)
    return new StartupError(
      `${at} (${unreachable}); check --db (AUTH_DATABASE_URL) and that PostgreSQL is running there`,
      { cause: error },
    );
  const refused = codes.map((code) => REFUSED[code]).find((text) => text !== undefined);
  if (refused !== undefined)
    return new StartupError(
      `${at} (${refused}); check the user, password and database name in --db (AUTH_DATABASE_URL)`,
      { cause: error },
    );
  return error;
}
