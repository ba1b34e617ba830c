/**
 * The only code that writes the bundle. It writes every artifact into a fresh staging
 * directory beside the target (same parent, so the renames stay on one file system),
 * fsyncs files and folders, reads every file back (one at a time, so a big bundle is never
 * held twice) and optionally validates the whole, and only then swaps
 * it in: target → `.<name>-backup`, staging → target, backup removed. A kill before the
 * swap leaves the old bundle in place; a kill between the two renames leaves the backup,
 * which `recoverInterruptedPublish` (run first by every publish) renames back. Leftover
 * staging folders of killed builds are removed under the publish lock.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Artifact } from '../artifact.js';
import { encodeArtifact } from '../bundle-file-encoding.js';
import { isCompactArtifact } from '../compact-artifact.js';
import { CatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Problem } from '../validate/index.js';
import { filesOfBytes } from '../validate/lazy-bundle-files.js';
import { type BundleDigests, digestArtifact, digestFile } from './file-digest.js';
import { acquirePublishLock, lockPathFor } from './lock.js';
import { listBundleFiles, readBundle } from './read-bundle.js';
import { allocateSliceBuffers, writeBytesVerified, writeTextVerified } from './write-text.js';

export interface PublishOptions {
  /** Absolute path of the bundle directory (e.g. …/dist). */
  target: string;
  artifacts: readonly Artifact[];
  /**
   * Re-validates the files as read back from staging. The bytes read back are always
   * compared with the artifacts, so when those were validated before publishing (as
   * `build` does) this adds nothing but time and may be left out.
   */
  validate?: (files: ReadonlyMap<string, string>) => Problem[];
  /**
   * The digests of the bundle now at `target`. A file whose content is unchanged is not
   * written again: it is hard-linked from the current bundle (and its digest checked once
   * linked), so it keeps its bytes, its time and its upload, and costs no write or fsync.
   */
  previous?: BundleDigests;
  logger: Logger;
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

interface Layout {
  target: string;
  parent: string;
  name: string;
  backup: string;
  stagingPrefix: string;
}

function layoutOf(target: string): Layout {
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Directory entries are durable only once the directory itself is fsynced. */
async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
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

/** Bundle-relative, forward slashes, no `.`/`..` segment: nothing may land outside the staging folder. */
function checkArtifactPath(path: string): void {
  const segments = path.split('/');
  const bad =
    path.includes('\\') ||
    path.includes('\0') ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new TypeError(`artifact path must be bundle-relative: ${JSON.stringify(path)}`);
}

/**
 * Links the current bundle's copy of an unchanged file into staging. False when it cannot
 * (another file system, a file changed since its digest was read): the caller writes it.
 */
async function linkUnchanged(current: string, file: string, digest: string): Promise<boolean> {
  try {
    await link(current, file);
  } catch {
    return false;
  }
  if ((await digestFile(file).catch(() => '')) === digest) return true;
  await unlink(file);
  return false;
}

async function writeArtifact(
  file: string,
  artifact: Artifact,
  buffers: ReturnType<typeof allocateSliceBuffers>,
  encoded: Buffer | undefined,
) {
  // A compact artifact already holds its bytes; a text is encoded a slice at a time.
  if (artifact.encoding === undefined && !isCompactArtifact(artifact))
    await writeTextVerified(file, artifact.body, buffers);
  else await writeBytesVerified(file, encoded ?? encodeArtifact(artifact));
}

async function writeStaging(staging: string, options: PublishOptions): Promise<PublishReport> {
  await mkdir(staging);
  const folders = new Set<string>([staging]);
  const buffers = allocateSliceBuffers();
  const report: PublishReport = { written: 0, unchanged: 0, removed: 0 };
  for (const artifact of options.artifacts) {
    checkArtifactPath(artifact.path);
    const file = join(staging, artifact.path);
    await mkdir(dirname(file), { recursive: true });
    for (let dir = dirname(file); dir.startsWith(staging); dir = dirname(dir)) folders.add(dir);
    const before = options.previous?.get(artifact.path);
    const encoded = before === undefined ? undefined : digestArtifact(artifact);
    if (encoded?.digest === before && before !== undefined) {
      if (await linkUnchanged(join(options.target, artifact.path), file, before)) {
        report.unchanged += 1;
        continue;
      }
    }
    await writeArtifact(file, artifact, buffers, encoded?.bytes);
    report.written += 1;
  }
  for (const folder of folders) await fsyncDirectory(folder);
  const paths = new Set(options.artifacts.map((artifact) => artifact.path));
  for (const path of options.previous?.keys() ?? []) if (!paths.has(path)) report.removed += 1;
  return report;
}

/**
 * Every file was read back as it was written (`writeTextVerified`); here the staging folder
 * must hold those files and no other. The optional re-validation needs the whole bundle
 * as text, so only then is it read back whole.
 */
async function verifyStaging(staging: string, options: PublishOptions): Promise<void> {
  const written = await listBundleFiles(staging);
  const expected = new Set(options.artifacts.map((artifact) => artifact.path));
  if (written.length !== expected.size || written.some((path) => !expected.has(path))) {
    throw new CatalogError(
      'PUBLISH_FAILED',
      `the files read back from ${staging} differ from those written`,
      {
        dir: staging,
      },
    );
  }
  if (!options.validate) return;
  const files = (await readBundle(staging)) ?? new Map();
  const problems = options.validate(filesOfBytes(files));
  if (problems.length > 0) {
    const documents = [...new Set(problems.map((problem) => problem.path))].sort();
    throw new CatalogError(
      'OUTPUT_INVALID',
      `the written bundle is invalid (${documents.join(', ')}): ${problems[0]?.message ?? ''}`,
      { documents, problems },
    );
  }
}

async function swapIn(layout: Layout, staging: string): Promise<void> {
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

/** Writes, verifies and swaps in the bundle; on any failure the target is left as it was. */
export async function publishBundle(options: PublishOptions): Promise<PublishReport> {
  const layout = layoutOf(options.target);
  await mkdir(layout.parent, { recursive: true });
  const release = await acquirePublishLock(lockPathFor(layout.target, layout.name));
  const staging = join(layout.parent, `${layout.stagingPrefix}${randomBytes(6).toString('hex')}`);
  try {
    await recoverInterruptedPublish(layout.target, options.logger);
    const report = await writeStaging(staging, options);
    await verifyStaging(staging, options);
    await swapIn(layout, staging);
    return report;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof CatalogError || error instanceof TypeError) throw error;
    throw new CatalogError(
      'PUBLISH_FAILED',
      `cannot publish to ${layout.target}`,
      { dir: layout.target },
      { cause: error },
    );
  } finally {
    await release();
  }
}
