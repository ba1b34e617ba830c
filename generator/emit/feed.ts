/** Placeholder: emitter for the feed documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitFeed(_plan: BuildPlan): Artifact[] {
  return [];
}
