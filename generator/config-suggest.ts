/**
 * "Did you mean `content_dir`?" for a mistyped key of `catalog.config.json`: the config
 * schema refuses unknown keys (a typo must not become a silent default), and this finds
 * the nearest key the schema knows at the same place, nested sections included, by edit
 * distance (issue 24). Pure; only called when a config is already being refused.
 */
import { z } from 'zod';

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of
 * two neighbouring characters each cost 1, so `contnet_dir` is 1 from `content_dir`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `word`, when it is near enough to be the likely intent: at most
 * a third of the word's length away (and at least one edit allowed); ties go to the first
 * in alphabetical order, so the answer does not depend on the schema's key order.
 */
export function nearestKey(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of [...candidates].sort()) {
    const distance = editDistance(word.toLowerCase(), key.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

/** The object schema under optional and default wrappers, if there is one. */
function objectOf(schema: z.ZodType): z.ZodObject | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 5; depth++) {
    if (current instanceof z.ZodObject) return current;
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    } else return undefined;
  }
  return undefined;
}

/** The keys the schema allows at `path` (e.g. `['upstream']`); empty when `path` is not an object. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current = objectOf(schema);
  for (const segment of path) {
    const next: unknown = current?.shape[String(segment)];
    current = next instanceof z.ZodType ? objectOf(next) : undefined;
  }
  return current ? Object.keys(current.shape) : [];
}
