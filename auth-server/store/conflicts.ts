/**
 * The database errors the store recognises as a conflict with another write. A unique
 * violation (an address already taken) is an answer, not a failure. And PostgreSQL may give
 * up on a transaction because of another one: a serialization failure (40001) or a detected
 * deadlock (40P01). Such a transaction changed nothing, so it is simply run again, a bounded number of times with a short random pause;
 * if it still cannot finish, `StoreConflictError` says so, and the error middleware answers
 * 409 (a client's race is never a 5xx). The paths that spend a token or change a password
 * also take their locks in one order (the customer's row first), so a deadlock between them
 * should not happen at all; this is the second guard (issue 23, finding 4).
 */

const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 4;

export class StoreConflictError extends Error {
  readonly code = 'STORE_CONFLICT';
}

function isRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && RETRYABLE.has(String(error.code));
}

/** Runs `transaction` again while PostgreSQL reports a serialization failure or deadlock. */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= ATTEMPTS)
        throw new StoreConflictError('another change to this account happened at the same moment', {
          cause: error,
        });
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.floor(Math.random() * 20)));
    }
  }
}

/** True for a unique-constraint violation, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
