/** Placeholder: emitter for the kb documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitKnowledgeBase(_plan: BuildPlan): Artifact[] {
  return [];
}
