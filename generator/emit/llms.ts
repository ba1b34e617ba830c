/** Placeholder: emitter for the llms documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitLlms(_plan: BuildPlan): Artifact[] {
  return [];
}
