/** Placeholder: emitter for the sitemap documents (to be written). */
import type { Artifact } from '../artifact.js';
import type { BuildPlan } from '../plan.js';

export function emitSitemap(_plan: BuildPlan): Artifact[] {
  return [];
}
