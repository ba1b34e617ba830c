/** Placeholder: emitter for the docs documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitDocs(_plan: BuildPlan): Artifact[] {
  return [];
}
