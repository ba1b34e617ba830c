/** Placeholder: the hosting rules (`_headers`, `_redirects`) derived from the other artifacts. */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitHostingRules(_plan: BuildPlan, _artifacts: readonly Artifact[]): Artifact[] {
  return [];
}
