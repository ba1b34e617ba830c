/**
 * The catalog and health documents (spec 2.1, 2.5, 4): `{base_url}/agent-catalog` and
 * `{base_url}/agent-catalog/health`, stored as `.json` files that the hosting rules
 * rewrite the extension-less paths to.
 */
import type { Artifact } from '../artifact.js';
import type { ResolvedConfig } from '../config.js';
import type { BuildPlan } from '../plan.js';
import { recordsJsonArtifact } from './fragments.js';
import { jsonBody } from './json.js';

export function catalogPaths(baseUrl: string): { catalogPath: string; healthPath: string } {
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return { catalogPath: `${prefix}/agent-catalog`, healthPath: `${prefix}/agent-catalog/health` };
}

/** The catalog and health URLs: `{base_url}/agent-catalog` and `{base_url}/agent-catalog/health`. */
export function catalogUrls(config: ResolvedConfig): { catalogUrl: string; healthUrl: string } {
  return {
    catalogUrl: `${config.base_url}/agent-catalog`,
    healthUrl: `${config.base_url}/agent-catalog/health`,
  };
}

export function emitCatalog(plan: BuildPlan): Artifact[] {
  const { catalogPath, healthPath } = catalogPaths(plan.config.base_url);
  return [
    recordsJsonArtifact(
      plan,
      { path: `${catalogPath.slice(1)}.json`, publicPath: catalogPath, mediaType: 'application/json' },
      { ...plan.catalog },
    ),
    {
      path: `${healthPath.slice(1)}.json`,
      publicPath: healthPath,
      mediaType: 'application/json',
      ...jsonBody(plan.health),
    },
  ];
}
