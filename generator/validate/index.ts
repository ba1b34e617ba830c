/**
 * The gate before publishing: checks every document of a bundle against its format and
 * the documents against each other. The build runs it on its artifacts before anything
 * is written; `agent-catalog check` runs it on a directory or a live site. This module
 * is the registry: one list of checkers, each a function from the bundle's files to
 * problems, owned by the module that emits the document it checks.
 */
import type { Artifact } from '../artifact.js';
import { checkFeed } from '../emit/feed-check.js';
import { checkHostingRules } from '../emit/hosting-check.js';
import { checkKnowledgeBase } from '../emit/kb.js';
import { checkLlms } from '../emit/llms.js';
import { checkRobots } from '../emit/robots.js';
import { checkSitemap } from '../emit/sitemap.js';
import { checkAgentFeeds } from './agent-feeds/index.js';
import { KB_PRODUCTS_FILE, locateDocuments, parseJson } from './bundle-layout.js';
import { checkConsistency } from './consistency.js';
import { checkDiscovery } from './discovery.js';
import { catalogEnvelopeOf, kbEnvelopeOf } from './listed-records.js';
import { checkMarkdownPages } from './markdown-pages.js';
import { checkOpenApi } from './openapi.js';
import { bundleFilesOf } from './parse-once.js';
import type { BundleChecker, BundleFiles, Problem } from './problem.js';
import { checkSchemas } from './schemas.js';
import { checkUcpProfile } from './ucp-profile.js';
import { checkWellKnown } from './well-known.js';

export { bundleFilesOf } from './parse-once.js';
export type { BundleChecker, BundleFiles, Problem } from './problem.js';

export function checkJsonSyntax(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  const { catalogFile } = locateDocuments(files);
  for (const path of files.keys()) {
    if (!path.endsWith('.json')) continue;
    // Parsed once per bundle and cached: the other checkers read the same values. The two
    // documents that list every product are walked instead, never parsed whole.
    const parsed =
      path === catalogFile
        ? catalogEnvelopeOf(files, path)
        : path === KB_PRODUCTS_FILE
          ? kbEnvelopeOf(files)
          : parseJson(files, path);
    if (parsed !== undefined && !parsed.ok) {
      problems.push({ path, rule: 'json', message: `not valid JSON: ${parsed.error}` });
    }
  }
  return problems;
}

export const BUNDLE_CHECKERS: readonly BundleChecker[] = [
  checkJsonSyntax,
  checkSchemas,
  checkOpenApi,
  checkWellKnown,
  checkDiscovery,
  checkMarkdownPages,
  checkUcpProfile,
  checkKnowledgeBase,
  checkFeed,
  checkSitemap,
  checkLlms,
  checkRobots,
  checkHostingRules,
  checkConsistency,
  checkAgentFeeds,
];

export function validateBundle(
  files: BundleFiles,
  checkers: readonly BundleChecker[] = BUNDLE_CHECKERS,
): Problem[] {
  return checkers.flatMap((check) => check(files));
}

export function validateArtifacts(artifacts: readonly Artifact[]): Problem[] {
  return validateBundle(bundleFilesOf(artifacts));
}
