/**
 * The issuer's logger: JSON lines written through a function the caller supplies, so
 * library code never touches `console` or `process`. Callers pass fields, never secrets:
 * no token, code, password or client secret is ever given to the logger. As a second line
 * of defence every line is redacted on the way out (fields whose names say they hold a
 * credential, and values shaped like a JWT or an Authorization header), and each line
 * logged while a request is being handled carries that request's id (`withRequestId`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

const requestScope = new AsyncLocalStorage<string>();

/** Runs `fn` so that every line logged from it (and its async continuations) carries `requestId`. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run(requestId, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}

// Names of fields that would hold a credential if a caller ever slipped one in.
const SECRET_NAME =
  /pass(word)?|secret|token|authori[sz]ation|cookie|^code$|code_?verifier|csrf|^session(_?id)?$|private|jwk|assertion/i;
// Values that are credentials whatever field carries them: a JWT, or an auth header value.
const SECRET_VALUE =
  /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*)?|\b(Bearer|Basic|DPoP)\s+[A-Za-z0-9._~+/=-]+/g;
const MAX_DEPTH = 4;

/** Redacts credential-looking values, recursing a few levels into objects and arrays. */
export function redactLogValue(value: unknown, name = '', depth = 0): unknown {
  if (typeof value === 'string') {
    if (SECRET_NAME.test(name)) return '[redacted]';
    return value.replace(SECRET_VALUE, '[redacted]');
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redactLogValue(item, name, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = redactLogValue(inner, key, depth + 1);
  return out;
}

/** A logger that writes one JSON object per line at `minLevel` and above. */
export function createJsonLogger(write: (line: string) => void, minLevel: LogLevel = 'info'): Logger {
  const threshold = LEVELS.indexOf(minLevel);
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS.indexOf(level) < threshold) return;
    const requestId = requestScope.getStore();
    const line = {
      time: new Date().toISOString(),
      level,
      msg: redactLogValue(message),
      ...(requestId !== undefined ? { requestId } : {}),
      ...(fields ? (redactLogValue(fields) as Record<string, unknown>) : {}),
    };
    write(`${JSON.stringify(line)}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/**
 * A `write` for `createJsonLogger` that hands a stream the lines of one event-loop turn in
 * one write: the stream is corked at the first line and uncorked once the turn's I/O has
 * been handled (setImmediate), and at exit. Under load the issuer logs a line per request,
 * and a write(2) per line to a pipe cost more CPU than the rest of a JWKS request (issue 14,
 * BENCHMARKS.md). Everything else written to the stream meanwhile joins the same batch in
 * the order it was written, so the output stays in order.
 */
export function coalescedWrite(stream: Writable): (line: string) => void {
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  process.once('exit', uncork);
  return (line) => {
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(uncork);
    }
    stream.write(line);
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
