/**
 * The build's writer: a staging folder beside the target that the build writes each document
 * into as soon as it is emitted, so the bundle is never in memory at once (at 100,000
 * products it is 1.6 GB). Each accepted artifact comes back spilled: its body is read from
 * its staging file when the gate asks for it. A document whose content equals the current
 * bundle's is hard-linked from it instead of written (no write, no fsync, no upload).
 *
 * Files are written without fsync as they come; `commit` then fsyncs each written file, reads
 * it back through SHA-256 against the digest of what was written, checks that staging holds
 * exactly the accepted paths, and swaps it in. `discard` removes staging. The publish lock is
 * held from `openStagingSink` until commit or discard, so two builds never share a target.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Artifact } from '../artifact.js';
import { encodeArtifact } from '../bundle-file-encoding.js';
import { knownDigestOf, spillArtifact } from '../compact-artifact.js';
import { CatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  type BundleDigests,
  digestArtifactText,
  digestBytes,
  digestFile,
  type FileStamp,
  sameStamp,
  sourceOfDigest,
  stampOfDigest,
} from './file-digest.js';
import { acquirePublishLock, lockPathFor } from './lock.js';
import { listBundleFiles } from './read-bundle.js';
import {
  checkArtifactPath,
  fsyncDirectory,
  layoutOf,
  type PublishReport,
  recoverInterruptedPublish,
  swapIn,
} from './staging-layout.js';

export interface StagingSink {
  /** The staging folder (its files are the bundle being built). */
  readonly dir: string;
  /** Writes (or links) one artifact into staging and returns it spilled, read from there. */
  accept(artifact: Artifact): Artifact;
  /** Makes staging durable, verifies it and swaps it in as the target. */
  commit(): Promise<PublishReport>;
  /** The digest of every file of the bundle, written or kept (complete once every artifact was accepted). */
  readonly digests: ReadonlyMap<string, string>;
  /** For each compressed file: the SHA-256 of the text it was made from. */
  readonly sources: ReadonlyMap<string, string>;
  /** Removes staging and releases the lock; safe to call after a failed commit. */
  discard(): Promise<void>;
}

function linkUnchangedSync(
  current: string,
  file: string,
  digest: string,
  stamp: FileStamp | undefined,
): boolean {
  try {
    linkSync(current, file);
  } catch {
    return false;
  }
  // The current bundle's file must still hold what its digest says (another writer, a
  // hand edit). The same inode, size and time as when the digest was read: the same bytes.
  // Otherwise read it once through SHA-256, and write the file anew when it does not.
  if (sameStamp(stamp, statSync(file))) return true;
  if (digestBytes(readFileSync(file)) === digest) return true;
  unlinkSync(file);
  return false;
}

async function syncAndVerify(file: string, digest: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  if ((await digestFile(file)) !== digest) {
    throw new CatalogError('PUBLISH_FAILED', `the file read back from ${file} differs from the one written`, {
      file,
    });
  }
}

export async function openStagingSink(options: {
  target: string;
  /** The digests of the bundle now at `target`. */
  previous?: BundleDigests;
  logger: Logger;
}): Promise<StagingSink> {
  const layout = layoutOf(options.target);
  await mkdir(layout.parent, { recursive: true });
  const release = await acquirePublishLock(lockPathFor(layout.target, layout.name));
  const dir = join(layout.parent, `${layout.stagingPrefix}${randomBytes(6).toString('hex')}`);
  const written = new Map<string, string>();
  const folders = new Set<string>([dir]);
  const accepted = new Set<string>();
  const digests = new Map<string, string>();
  const sources = new Map<string, string>();
  let unchanged = 0;
  let active = true;
  try {
    await recoverInterruptedPublish(layout.target, options.logger);
    await mkdir(dir);
  } catch (error) {
    await release();
    throw error;
  }

  function accept(artifact: Artifact): Artifact {
    checkArtifactPath(artifact.path);
    if (accepted.has(artifact.path)) {
      throw new CatalogError('OUTPUT_INVALID', `two documents would be published at ${artifact.path}`, {
        path: artifact.path,
      });
    }
    accepted.add(artifact.path);
    const file = join(dir, artifact.path);
    // One mkdir per new folder, not one per file: 100,000 product pages share one folder.
    if (!folders.has(dirname(file))) {
      mkdirSync(dirname(file), { recursive: true });
      for (let folder = dirname(file); folder.startsWith(dir); folder = dirname(folder)) folders.add(folder);
    }
    const current = join(layout.target, artifact.path);
    const before = options.previous?.get(artifact.path);
    const stamp = options.previous === undefined ? undefined : stampOfDigest(options.previous, artifact.path);
    // A compressed file made from the same text as the last bundle's is that file: kept
    // without compressing again (gzip at level 9 is most of what an OpenAI feed shard costs).
    const source = artifact.encoding === 'gzip' ? digestArtifactText(artifact) : undefined;
    if (source !== undefined) sources.set(artifact.path, source);
    const sameSource =
      source !== undefined &&
      before !== undefined &&
      options.previous !== undefined &&
      sourceOfDigest(options.previous, artifact.path) === source;
    // A part kept from the last bundle is that bundle's file: linked without reading its bytes.
    const known = knownDigestOf(artifact);
    if (
      ((sameSource && before !== undefined) || (known !== undefined && known === before)) &&
      linkUnchangedSync(current, file, before, stamp)
    ) {
      digests.set(artifact.path, before);
      unchanged += 1;
    } else {
      const bytes = encodeArtifact(artifact);
      const digest = digestBytes(bytes);
      digests.set(artifact.path, digest);
      if (before === digest && linkUnchangedSync(current, file, digest, stamp)) unchanged += 1;
      else {
        writeFileSync(file, bytes, { flag: 'wx' });
        written.set(artifact.path, digest);
      }
    }
    const read =
      artifact.encoding === 'gzip' ? () => gunzipSync(readFileSync(file)) : () => readFileSync(file);
    return spillArtifact(artifact, read);
  }

  async function discard(): Promise<void> {
    if (!active) return;
    active = false;
    try {
      await rm(dir, { recursive: true, force: true });
    } finally {
      await release();
    }
  }

  async function commit(): Promise<PublishReport> {
    if (!active) throw new TypeError('the staging sink is closed');
    try {
      for (const [path, digest] of written) await syncAndVerify(join(dir, path), digest);
      for (const folder of folders) await fsyncDirectory(folder);
      const listed = await listBundleFiles(dir);
      if (listed.length !== accepted.size || listed.some((path) => !accepted.has(path))) {
        throw new CatalogError('PUBLISH_FAILED', `the files in ${dir} differ from those written`, { dir });
      }
      await swapIn(layout, dir);
    } catch (error) {
      await discard();
      if (error instanceof CatalogError) throw error;
      throw new CatalogError(
        'PUBLISH_FAILED',
        `cannot publish to ${layout.target}`,
        { dir: layout.target },
        { cause: error },
      );
    }
    active = false;
    await release();
    let removed = 0;
    for (const path of options.previous?.keys() ?? []) if (!accepted.has(path)) removed += 1;
    return { written: written.size, unchanged, removed };
  }

  return { dir, accept, commit, discard, digests, sources };
}
