/**
 * The only code that writes the bundle, for a list of artifacts: they go through the same
 * staging sink the build writes into as it emits (`staging-sink.ts`: a staging folder
 * beside the target, unchanged files hard-linked from the current bundle, every written file
 * fsynced and read back, then an atomic swap), optionally re-validated from staging first.
 * A kill before the swap leaves the old bundle in place; a kill between the two renames
 * leaves the backup, which `recoverInterruptedPublish` (run first by every publish) renames
 * back. Leftover staging folders of killed builds are removed under the publish lock.
 */
import type { Artifact } from '../artifact.js';
import { CatalogError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Problem } from '../validate/index.js';
import { filesOfArtifacts } from '../validate/lazy-bundle-files.js';
import type { BundleDigests } from './file-digest.js';
import type { PublishReport } from './staging-layout.js';
import { openStagingSink } from './staging-sink.js';

export { type PublishReport, recoverBundle, recoverInterruptedPublish } from './staging-layout.js';

export interface PublishOptions {
  /** Absolute path of the bundle directory (e.g. …/dist). */
  target: string;
  artifacts: readonly Artifact[];
  /** Re-validates the files as read back from staging before they are swapped in. */
  validate?: (files: ReadonlyMap<string, string>) => Problem[];
  /**
   * The digests of the bundle now at `target`. A file whose content is unchanged is not
   * written again: it is hard-linked from the current bundle (and its digest checked once
   * linked), so it keeps its bytes, its time and its upload, and costs no write or fsync.
   */
  previous?: BundleDigests;
  logger: Logger;
}

/** Writes, verifies and swaps in the bundle; on any failure the target is left as it was. */
export async function publishBundle(options: PublishOptions): Promise<PublishReport> {
  const sink = await openStagingSink({
    target: options.target,
    logger: options.logger,
    ...(options.previous ? { previous: options.previous } : {}),
  });
  try {
    const staged = options.artifacts.map(sink.accept);
    const problems = options.validate?.(filesOfArtifacts(staged)) ?? [];
    if (problems.length > 0) {
      const documents = [...new Set(problems.map((problem) => problem.path))].sort();
      throw new CatalogError(
        'OUTPUT_INVALID',
        `the written bundle is invalid (${documents.join(', ')}): ${problems[0]?.message ?? ''}`,
        { documents, problems },
      );
    }
    return await sink.commit();
  } catch (error) {
    await sink.discard();
    if (error instanceof CatalogError || error instanceof TypeError) throw error;
    throw new CatalogError(
      'PUBLISH_FAILED',
      `cannot publish to ${options.target}`,
      { dir: options.target },
      { cause: error },
    );
  }
}
