/**
 * The vocabulary of the gate: a bundle as files (bundle-relative path to text) and a
 * problem found in one of them. Every checker is a function from the first to a list of
 * the second, so the build, `agent-catalog check` and the tests all run the same code.
 */

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
