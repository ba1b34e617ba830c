/** Placeholder: emitter for the well-known documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitWellKnown(_plan: BuildPlan): Artifact[] {
  return [];
}
