/**
 * Every emitter of the bundle, in one list. Each is a pure function from the build plan
 * to artifacts; `emitBundle` runs them all and refuses two artifacts at one path.
 */
import type { Artifact } from '../artifact.js';
import { artifactUrlPath } from '../artifact.js';
import { CatalogError } from '../errors.js';
import type { BuildPlan } from '../plan.js';
import { emitCatalog } from './catalog.js';

export type Emitter = (plan: BuildPlan) => Artifact[];

export const EMITTERS: readonly Emitter[] = [emitCatalog];

export function emitBundle(plan: BuildPlan, emitters: readonly Emitter[] = EMITTERS): Artifact[] {
  const artifacts = emitters.flatMap((emit) => emit(plan));
  const seenFiles = new Set<string>();
  const seenUrls = new Set<string>();
  for (const artifact of artifacts) {
    const url = artifactUrlPath(artifact);
    if (seenFiles.has(artifact.path) || seenUrls.has(url)) {
      throw new CatalogError(
        'OUTPUT_INVALID',
        `two documents would be published at ${artifact.path} (${url})`,
        {
          path: artifact.path,
        },
      );
    }
    seenFiles.add(artifact.path);
    seenUrls.add(url);
  }
  return artifacts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
