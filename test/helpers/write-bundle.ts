/**
 * Writes a bundle's artifacts into a directory, the way `publish` lays them out, for
 * tests that serve or check a bundle without running the whole pipeline. Also makes a
 * fresh temporary directory for one, removed by the returned `cleanup`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Artifact } from '../../generator/artifact.js';
import { artifactBytes } from '../../generator/compact-artifact.js';

/** Writes every artifact at `dir/<artifact.path>`, creating folders as needed. */
export async function writeBundle(
  dir: string,
  artifacts: readonly Pick<Artifact, 'path' | 'body'>[],
): Promise<void> {
  for (const artifact of artifacts) {
    if (artifact.path.startsWith('/') || artifact.path.split('/').includes('..')) {
      throw new TypeError(`artifact path must be relative and inside the bundle: ${artifact.path}`);
    }
    const file = join(dir, artifact.path);
    await mkdir(dirname(file), { recursive: true });
    // Bytes, not `body`: the search index's `.bin` files are not text.
    await writeFile(file, artifactBytes(artifact));
  }
}

export interface TempBundle {
  dir: string;
  cleanup(): Promise<void>;
}

/** A fresh temp directory holding `artifacts` (under `bundle/` inside it, so siblings can be made). */
export async function writeTempBundle(
  artifacts: readonly Pick<Artifact, 'path' | 'body'>[],
): Promise<TempBundle> {
  const root = await mkdtemp(join(tmpdir(), 'agent-catalog-bundle-'));
  const dir = join(root, 'bundle');
  await mkdir(dir);
  await writeBundle(dir, artifacts);
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}
