/**
 * File permissions for the embedded SQLite store, which holds the signing keys, the
 * password hashes and every session (CWE-732, RFC 6819 §5.1.4). Under the usual umask 022
 * the data folder came out 0755 and the database 0644, readable by every local user. So
 * the folder is created 0700 and the database file 0600 whatever the umask (SQLite then
 * gives its `-wal` and `-shm` files the database file's own mode), and a store that other
 * users can already read or write is refused with the command that fixes it.
 */
import { closeSync, existsSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export class FilePermissionError extends Error {
  readonly code = 'FILE_PERMISSIONS';
  constructor(message: string) {
    super(message);
    this.name = 'FilePermissionError';
  }
}

const OTHERS = 0o077;

/** `file` as a shell word, quoted only when it needs to be. */
function shellWord(file: string): string {
  return /^[\w./@%+=:,-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}

/**
 * Refuses when any of `files` that exists can be read or written by anyone but its owner;
 * `what` says what the files hold, for the message.
 */
export function refuseSharedFiles(files: readonly string[], what: string): void {
  const shared = files.filter((file) => existsSync(file) && (statSync(file).mode & OTHERS) !== 0);
  if (shared.length === 0) return;
  const modes = shared.map((f) => `${f} (${(statSync(f).mode & 0o777).toString(8).padStart(4, '0')})`);
  throw new FilePermissionError(
    `${what} can be read by other users of this machine: ${modes.join(', ')}. ` +
      `Run: chmod 600 ${shared.map(shellWord).join(' ')}`,
  );
}

/**
 * Makes the SQLite database file private before SQLite opens it: the folder is created
 * 0700 when missing, the file 0600 when missing, and an existing file (or its -wal or -shm)
 * that others can reach is refused.
 */
export function preparePrivateSqliteFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(file, 'wx', 0o600);
    // The umask may have taken bits away (or a umask of 0 left none away): set exactly 0600.
    fchmodSync(fd, 0o600);
    closeSync(fd);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  refuseSharedFiles([file, `${file}-wal`, `${file}-shm`], 'the issuer database (it holds the signing keys)');
}
