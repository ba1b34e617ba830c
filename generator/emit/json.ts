/**
 * Reproducible JSON: the same value always serialises to the same bytes. Object keys
 * keep the order the model declares (records are built field by field), two-space
 * indentation, and a final newline. `jsonBody` also hands the value to the gate with the
 * text, so the gate checks the big documents without parsing them back.
 */
import type { Artifact } from '../artifact.js';

export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The body of a JSON artifact and the value it was serialised from. The value must be
 * plain JSON data (what the model types allow: no Date, Map or NaN), so that reading the
 * body back would give the same value.
 */
export function jsonBody(value: unknown): Pick<Artifact, 'body' | 'serialisedFrom'> {
  const body = stableJson(value);
  return { body, serialisedFrom: { body, value } };
}
