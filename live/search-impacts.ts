/**
 * The BM25F weighting of the live search index, applied at build time: a posting's impact
 * from how often its term is in each field of its product, the fields' lengths against
 * their averages, and how many products carry the term. The arithmetic is kept in one
 * order (fields in turn, one share added per occurrence) so every build of the same
 * catalog gives the same doubles, hence the same quantised bytes.
 */

/** Field boosts, in the order of `SearchRow.fields`: a word in the name says more than one in the description. */
export const BOOSTS = [4, 2, 2, 1, 1, 1.5] as const;
export const FIELDS = BOOSTS.length;

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * Per field, its average length in words over the catalog (1 for a field empty
 * everywhere), from each field's total over the `count` products (whole numbers, so the
 * same whatever order they were added in).
 */
export function fieldAverages(totals: Float64Array, count: number): number[] {
  return Array.from(totals, (total) => total / Math.max(1, count) || 1);
}

/** The inverse document frequency of a term `frequency` of `count` products carry. */
export function inverseFrequency(count: number, frequency: number): number {
  return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
}

/**
 * A posting's impact, unquantised: per field, what one occurrence there adds (the field's
 * boost over BM25's length normalisation) added once per occurrence, then saturated.
 * `times[field]` is the term's count in that field, `lengths[field]` the product's length
 * there in words.
 */
export function impactOf(
  idf: number,
  times: Uint32Array,
  lengths: Uint32Array,
  averages: readonly number[],
): number {
  let weight = 0;
  for (let field = 0; field < FIELDS; field += 1) {
    const count = times[field] as number;
    if (count === 0) continue;
    const norm = 1 - B + (B * (lengths[field] as number)) / (averages[field] as number);
    const share = (BOOSTS[field] as number) / norm;
    for (let time = 0; time < count; time += 1) weight += share;
  }
  return (idf * weight * (K1 + 1)) / (weight + K1);
}

/** An impact as one byte, 1–255, against the catalog's highest. */
export function quantiseImpact(impact: number, highest: number): number {
  return Math.max(1, Math.min(255, Math.round((impact / (highest || 1)) * 255)));
}
