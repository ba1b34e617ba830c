/** Placeholder: emitter for the openapi documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitOpenApi(_plan: BuildPlan): Artifact[] {
  return [];
}
