/**
 * The gate before publishing: checks every document of a bundle against its format and
 * the documents against each other. The build runs it on its artifacts before anything
 * is written; `agent-catalog check` runs it on a directory or a live site.
 */
import type { Artifact } from '../artifact.js';

export interface Problem {
  /** Bundle-relative path of the document at fault. */
  path: string;
  /** Stable machine-readable kind, e.g. `schema`, `xml`, `consistency`. */
  rule: string;
  message: string;
}

/** A bundle's files by bundle-relative path (as in Artifact.path), bodies as text. */
export type BundleFiles = ReadonlyMap<string, string>;

export type BundleChecker = (files: BundleFiles) => Problem[];

export function bundleFilesOf(artifacts: readonly Artifact[]): BundleFiles {
  return new Map(artifacts.map((artifact) => [artifact.path, artifact.body]));
}

export function checkJsonSyntax(files: BundleFiles): Problem[] {
  const problems: Problem[] = [];
  for (const [path, body] of files) {
    if (!path.endsWith('.json')) continue;
    try {
      JSON.parse(body);
    } catch (error) {
      problems.push({ path, rule: 'json', message: `not valid JSON: ${(error as Error).message}` });
    }
  }
  return problems;
}

export const BUNDLE_CHECKERS: readonly BundleChecker[] = [checkJsonSyntax];

export function validateBundle(
  files: BundleFiles,
  checkers: readonly BundleChecker[] = BUNDLE_CHECKERS,
): Problem[] {
  return checkers.flatMap((check) => check(files));
}

export function validateArtifacts(artifacts: readonly Artifact[]): Problem[] {
  return validateBundle(bundleFilesOf(artifacts));
}
