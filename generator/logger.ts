/**
 * A small logger passed into library code, which never calls `console` itself. The CLI
 * decides where lines go (stderr for progress and warnings, nothing with --quiet); tests
 * use `silentLogger` or `createMemoryLogger` to assert on warnings.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

export const silentLogger: Logger = {
  info() {},
  warn() {},
  debug() {},
};

export interface MemoryLogger extends Logger {
  readonly lines: { level: 'info' | 'warn' | 'debug'; message: string }[];
}

export function createMemoryLogger(): MemoryLogger {
  const lines: MemoryLogger['lines'] = [];
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    debug: (message) => lines.push({ level: 'debug', message }),
  };
}
