/** Placeholder: emitter for the robots documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitRobots(_plan: BuildPlan): Artifact[] {
  return [];
}
