/**
 * One publisher at a time per output directory. Two cron runs that overlap must not swap
 * directories under each other, and the clean-up of a killed build's leftovers is only
 * safe when no other build is writing. The lock is a directory (`mkdir` is atomic) beside
 * the target holding the owner's pid; a lock whose owner is gone is taken over.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CatalogError } from '../errors.js';

/** A lock without a pid file this old was left by a process killed while taking it. */
const ORPHAN_LOCK_MS = 60_000;

export function lockPathFor(target: string, name: string): string {
  return join(dirname(target), `.${name}-lock`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
}

async function isStale(lockDir: string): Promise<boolean> {
  try {
    const pid = Number.parseInt(await readFile(join(lockDir, 'pid'), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? !isAlive(pid) : true;
  } catch {
    try {
      const info = await stat(lockDir);
      return Date.now() - info.mtimeMs > ORPHAN_LOCK_MS;
    } catch {
      return true;
    }
  }
}

/** Takes the lock or throws PUBLISH_FAILED; resolves to the function that releases it. */
export async function acquirePublishLock(lockDir: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await mkdir(lockDir);
      await writeFile(join(lockDir, 'pid'), String(process.pid));
      return () => rm(lockDir, { recursive: true, force: true });
    } catch (error) {
      const exists =
        typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST';
      if (!exists) {
        throw new CatalogError(
          'PUBLISH_FAILED',
          `cannot take the publish lock ${lockDir}`,
          { lockDir },
          { cause: error },
        );
      }
      if (attempt === 0 && (await isStale(lockDir))) {
        await rm(lockDir, { recursive: true, force: true });
      }
    }
  }
  throw new CatalogError('PUBLISH_FAILED', `another build is publishing (lock ${lockDir} is held)`, {
    lockDir,
  });
}
