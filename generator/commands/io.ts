/**
 * What a command may touch of the process: its output streams and environment. The CLI
 * passes the real ones; tests pass buffers, so commands run in-process too.
 */
export interface CommandIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Resolved against relative paths given on the command line. */
  cwd: string;
}

export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
