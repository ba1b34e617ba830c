/**
 * WooCommerce grouped products ("a set": a table, four chairs) are not sold themselves;
 * their children are, each published as its own product. Once a whole crawl is mapped, a
 * grouped product's availability, price and price range are summarised from its
 * children's variants by the record's one set of rules (in stock when a child is, from
 * the lowest price of what can be bought), and it stays one variant of its own: its
 * children's variant ids belong to the children's records, and a variant id names one
 * offer in the whole catalog. Children outside the crawl are skipped; a group without any
 * child and without a price of its own is refused.
 */
import { buildProductRecord, singleVariantOf } from '../../record/build-record.js';
import type { ProductRecord } from '../../record/product-record.js';
import { summariseVariants } from '../../record/summarise-variants.js';
import { describeRejection } from './fields.js';
import type { ProductShelf } from './product-shelf.js';
import type { NormalisedProduct, RejectedProduct } from './types.js';

function summariseChildren(record: ProductRecord, children: readonly NormalisedProduct[]): ProductRecord {
  const summary = summariseVariants(children.flatMap((child) => child.record.variants));
  // The group's own summary fields are re-derived, never kept.
  const { price, availability, price_range, compare_at_price, requires_shipping, variants, ...known } =
    record;
  const own = singleVariantOf(
    { name: record.name, price: summary.price, availability: summary.availability },
    record.id,
    {
      requires_shipping: summary.requires_shipping,
    },
  );
  return buildProductRecord({
    ...known,
    variants: [own],
    ...(summary.price_range !== undefined ? { statedPriceRange: summary.price_range } : {}),
  });
}

/** What becomes of one grouped product, given its children in the crawl: itself summarised, or a refusal. */
function resolveGroup(
  product: NormalisedProduct,
  grouped: NonNullable<NormalisedProduct['grouped']>,
  children: readonly NormalisedProduct[],
): { product: NormalisedProduct } | { rejected: RejectedProduct } {
  const { grouped: _grouped, ...rest } = product;
  if (children.length > 0)
    return { product: { ...rest, record: summariseChildren(product.record, children) } };
  if (grouped.ownPrice) return { product: rest };
  const reason = `is a grouped product with no price of its own and none of its children (${grouped.childIds.join(', ')}) in the catalog`;
  return { rejected: describeRejection(product.sourceId, reason, product.record.name) };
}

export function resolveGroupedProducts(products: readonly NormalisedProduct[]): {
  products: NormalisedProduct[];
  rejected: RejectedProduct[];
} {
  if (!products.some((product) => product.grouped !== undefined))
    return { products: [...products], rejected: [] };
  const byId = new Map(products.map((product) => [product.sourceId, product]));
  const resolved: NormalisedProduct[] = [];
  const rejected: RejectedProduct[] = [];
  for (const product of products) {
    const { grouped } = product;
    if (grouped === undefined) {
      resolved.push(product);
      continue;
    }
    const children = grouped.childIds
      .map((id) => byId.get(id))
      .filter((child): child is NormalisedProduct => child !== undefined && child.grouped === undefined);
    const outcome = resolveGroup(product, grouped, children);
    if ('product' in outcome) resolved.push(outcome.product);
    else rejected.push(outcome.rejected);
  }
  return { products: resolved, rejected };
}

/**
 * The same over a shelf (the products on disk), in place: each group (`groups`, the numbers
 * of the grouped products, ascending) is read with its children by number (`numberOf`, by
 * id) and replaced by its summary; a refused one's number goes into the returned `dropped`.
 * A child that is a group itself is skipped, as above, whether or not it was resolved yet.
 */
export function resolveGroupsOnShelf(
  shelf: ProductShelf,
  groups: readonly number[],
  numberOf: (id: string) => number | undefined,
): { dropped: Set<number>; rejected: RejectedProduct[] } {
  const isGroup = new Set(groups);
  const dropped = new Set<number>();
  const rejected: RejectedProduct[] = [];
  for (const index of groups) {
    const product = shelf.at(index);
    if (product?.grouped === undefined) continue;
    const children: NormalisedProduct[] = [];
    for (const id of product.grouped.childIds) {
      const at = numberOf(id);
      const child = at === undefined || isGroup.has(at) ? undefined : shelf.at(at);
      if (child !== undefined) children.push(child);
    }
    const outcome = resolveGroup(product, product.grouped, children);
    if ('product' in outcome) shelf.set(index, outcome.product);
    else {
      dropped.add(index);
      rejected.push(outcome.rejected);
    }
  }
  return { dropped, rejected };
}
