/**
 * Reproducible JSON: the same value always serialises to the same bytes. Object keys
 * keep the order the model declares (records are built field by field), two-space
 * indentation, and a final newline.
 */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
