/**
 * The nearest of a few known names to a mistyped one, for "did you mean …?" in both CLIs:
 * a config key (`contnet_dir` → `content_dir`) or a command (`custmers` → `customers`).
 * Pure, small inputs only (tens of names), so the quadratic distance is fine.
 */

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
export function nearestName(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of [...candidates].sort()) {
    const distance = editDistance(word.toLowerCase(), key.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}
