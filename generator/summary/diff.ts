/**
 * What changed between the last good catalog and the new one, by product slug: products
 * added and removed, price changes and availability changes. The closing summary and the
 * `--json` object report it so a person (or a CI job) sees what a deploy would change.
 * Pure.
 */

export interface FieldChange {
  slug: string;
  from: string;
  to: string;
}

export interface CatalogChanges {
  added: string[];
  removed: string[];
  price: FieldChange[];
  availability: FieldChange[];
}

export const NO_CHANGES: CatalogChanges = Object.freeze({
  added: [],
  removed: [],
  price: [],
  availability: [],
});

export interface ProductFacts {
  slug: string;
  price: string;
  availability: string;
}

/** One product of a previous catalog as read from disk: only a well-formed entry counts. */
export function productFactOf(item: unknown): ProductFacts | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { slug, price, availability } = item as Record<string, unknown>;
  return typeof slug === 'string'
    ? { slug, price: String(price), availability: String(availability) }
    : undefined;
}

/** Products of a previous catalog as read from disk: only well-formed entries count. */
export function productFactsOf(catalog: unknown): ProductFacts[] {
  if (typeof catalog !== 'object' || catalog === null || !('products' in catalog)) return [];
  const products = (catalog as { products: unknown }).products;
  if (!Array.isArray(products)) return [];
  return products.flatMap((item: unknown) => productFactOf(item) ?? []);
}

/**
 * `next` is walked once, one product at a time (the plan's products may be read back from
 * disk): only the previous catalog's facts and the new slugs are held.
 */
export function diffCatalogs(
  previous: readonly ProductFacts[],
  next: Iterable<ProductFacts>,
): CatalogChanges {
  const before = new Map(previous.map((product) => [product.slug, product]));
  const after = new Set<string>();
  const changes: CatalogChanges = { added: [], removed: [], price: [], availability: [] };
  for (const product of next) {
    const { slug } = product;
    if (after.has(slug)) continue;
    after.add(slug);
    const old = before.get(slug);
    if (!old) {
      changes.added.push(slug);
      continue;
    }
    if (old.price !== product.price) changes.price.push({ slug, from: old.price, to: product.price });
    if (old.availability !== product.availability) {
      changes.availability.push({ slug, from: old.availability, to: product.availability });
    }
  }
  for (const slug of before.keys()) if (!after.has(slug)) changes.removed.push(slug);
  for (const list of [changes.added, changes.removed]) list.sort();
  for (const list of [changes.price, changes.availability]) list.sort((a, b) => (a.slug < b.slug ? -1 : 1));
  return changes;
}
