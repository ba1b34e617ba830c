/**
 * The gate of a rebuild whose unchanged products were validated by the build that last
 * published them (their digests are the build cache's, under the same settings and
 * version): the products that changed are validated in full, as a bundle of their own
 * (every checker, the cross-document ones included), and the whole bundle is validated by
 * the checkers that do not go product by product. The big documents of the whole bundle
 * are the fragments of the two (emit/fragments.ts): the same bytes a cold build writes,
 * which test/generator/cache/incremental-build.test.ts holds to.
 */
import type { Artifact } from './artifact.js';
import { wholeDocuments } from './emit/document-storage.js';
import { checkHostingRules } from './emit/hosting-check.js';
import { emitBundle } from './emit/index.js';
import { checkLlmsIndex } from './emit/llms.js';
import { checkRobots } from './emit/robots.js';
import { checkSitemap } from './emit/sitemap.js';
import { planBuild } from './pipeline.js';
import type { BuildPlan, PlannedProduct, ValidatedProducts } from './plan.js';
import { productAt } from './product-store/planned-products.js';
import { keyColumnOf } from './product-store/product-keys.js';
import { checkDiscovery } from './validate/discovery.js';
import { bundleFilesOf, checkJsonSyntax, validateArtifacts, validateBundle } from './validate/index.js';
import { checkOpenApi } from './validate/openapi.js';
import type { BundleChecker, Problem } from './validate/problem.js';
import { checkUcpProfile } from './validate/ucp-profile.js';
import { checkWellKnown } from './validate/well-known.js';

/**
 * The checkers whose work does not grow with the products a document holds, or that read
 * only small documents; with them, the JSON syntax of every file that changed. llms-full.txt
 * is checked in the changed products' bundle only: what is checked of it (its head, its
 * title first) is rendered by the same code from the same settings whatever the products,
 * and reading the whole bundle's copy meant assembling a 117 MiB text (2.2 s at 100,000).
 */
export const WHOLE_BUNDLE_CHECKERS: readonly BundleChecker[] = [
  checkOpenApi,
  checkWellKnown,
  checkDiscovery,
  checkUcpProfile,
  checkSitemap,
  checkLlmsIndex,
  checkRobots,
  checkHostingRules,
];

/**
 * The problems of `artifacts` (the bundle of `plan`) when the products named in `validated`
 * passed the gate before with the digests they have now.
 */
export function validateChanged(
  plan: BuildPlan,
  artifacts: readonly Artifact[],
  validated: ValidatedProducts,
  unchangedFiles: ReadonlySet<string> = new Set(),
): Problem[] {
  // By the key column: only the changed products are read (a whole walk parses every
  // product of a list on disk, about 3 s at 100,000 products).
  const keys = keyColumnOf(plan.products);
  const changed: PlannedProduct[] = [];
  for (let index = 0; index < plan.products.length; index += 1)
    if (!validated.has(keys.slug(index))) changed.push(productAt(plan.products, index, 'validateChanged'));
  const ofChanged = planBuild({
    config: plan.config,
    products: changed,
    articles: plan.articles,
    generated: plan.generated,
    allowEmpty: true,
  });
  const problems = validateArtifacts(wholeDocuments(emitBundle(ofChanged)));
  problems.push(...validateBundle(bundleFilesOf(artifacts), WHOLE_BUNDLE_CHECKERS));
  // JSON syntax goes file by file: a file with the bytes the last bundle's gate passed is
  // not parsed again (at 100,000 products the live handler's shards are thousands of files).
  const changedFiles = artifacts.filter((artifact) => !unchangedFiles.has(artifact.path));
  problems.push(...checkJsonSyntax(bundleFilesOf(changedFiles)));
  return problems;
}
