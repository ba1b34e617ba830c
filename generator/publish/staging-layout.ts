/**
 * Where a publish stages the bundle and how it swaps it in, shared by the two writers (
 * `publishBundle`, which writes a list of artifacts, and the staging sink, which the build
 * writes into as it emits): the staging and backup folders beside the target (same parent,
 * so the renames stay on one file system), directory fsyncs, the artifact path rule, the
 * swap, and the recovery of a swap a killed build interrupted.
 */
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../logger.js';
import { acquirePublishLock, lockPathFor } from './lock.js';

export interface Layout {
  target: string;
  parent: string;
  name: string;
  backup: string;
  stagingPrefix: string;
}

export function layoutOf(target: string): Layout {
  const name = basename(target);
  const parent = dirname(target);
  return {
    target,
    parent,
    name,
    backup: join(parent, `.${name}-backup`),
    stagingPrefix: `.${name}-staging-`,
  };
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Directory entries are durable only once the directory itself is fsynced. */
export async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Bundle-relative, forward slashes, no `.`/`..` segment: nothing may land outside the staging folder. */
export function checkArtifactPath(path: string): void {
  const segments = path.split('/');
  const bad =
    path.includes('\\') ||
    path.includes('\0') ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new TypeError(`artifact path must be bundle-relative: ${JSON.stringify(path)}`);
}

export async function swapIn(layout: Layout, staging: string): Promise<void> {
  const hadTarget = await exists(layout.target);
  if (hadTarget) await rename(layout.target, layout.backup);
  try {
    await rename(staging, layout.target);
  } catch (error) {
    if (hadTarget) await rename(layout.backup, layout.target);
    throw error;
  }
  await fsyncDirectory(layout.parent);
  if (hadTarget) await rm(layout.backup, { recursive: true, force: true });
}

/** What a publish did to the bundle's files, for the `--json` summary. */
export interface PublishReport {
  /** Files written anew: new, or changed since the last bundle. */
  written: number;
  /** Files kept from the last bundle, byte for byte. */
  unchanged: number;
  /** Files of the last bundle that the new one no longer has. */
  removed: number;
}

/** Puts back a bundle whose swap was interrupted, and removes leftovers of killed builds. */
export async function recoverInterruptedPublish(target: string, logger: Logger): Promise<void> {
  const layout = layoutOf(target);
  if (await exists(layout.backup)) {
    if (await exists(layout.target)) {
      await rm(layout.backup, { recursive: true, force: true });
    } else {
      logger.warn(`restoring ${layout.target} from ${layout.backup}, left by an interrupted publish`);
      await rename(layout.backup, layout.target);
      await fsyncDirectory(layout.parent);
    }
  }
  const entries = await readdir(layout.parent).catch(() => [] as string[]);
  for (const entry of entries) {
    if (entry.startsWith(layout.stagingPrefix)) {
      logger.debug(`removing ${entry}, left by an interrupted build`);
      await rm(join(layout.parent, entry), { recursive: true, force: true });
    }
  }
}

/** Takes the publish lock and recovers; the build runs it before reading the last bundle. */
export async function recoverBundle(target: string, logger: Logger): Promise<void> {
  const layout = layoutOf(target);
  if (!(await exists(layout.parent))) return;
  const release = await acquirePublishLock(lockPathFor(layout.target, layout.name));
  try {
    await recoverInterruptedPublish(layout.target, logger);
  } finally {
    await release();
  }
}
