/**
 * The issuer's logger: JSON lines written through a function the caller supplies, so
 * library code never touches `console` or `process`. Callers pass fields, never secrets:
 * no token, code, password or client secret is ever given to the logger.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** A logger that writes one JSON object per line at `minLevel` and above. */
export function createJsonLogger(write: (line: string) => void, minLevel: LogLevel = 'info'): Logger {
  const threshold = LEVELS.indexOf(minLevel);
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS.indexOf(level) < threshold) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
