/**
 * WooCommerce grouped products ("a set": a table, four chairs) are not sold themselves;
 * their children are. Once a whole crawl is mapped, a grouped product takes its children's
 * variants (each titled by the child, with the child's page), so its availability and
 * price range follow from what a shopper can actually buy, by the record's one set of
 * rules. Children outside the crawl are skipped; a group without any child and without
 * a price of its own is refused.
 */
import { buildProductRecord } from '../../record/build-record.js';
import type { ProductRecord, ProductVariant } from '../../record/product-record.js';
import { describeRejection } from './fields.js';
import type { NormalisedProduct, RejectedProduct } from './types.js';

function variantsOfChild(child: ProductRecord): ProductVariant[] {
  const several = child.variants.length > 1;
  return child.variants.map((variant) => ({
    ...variant,
    title: several ? `${child.name} – ${variant.title}` : child.name,
    url: variant.url ?? child.url,
  }));
}

function withVariants(record: ProductRecord, variants: ProductVariant[]): ProductRecord {
  // The summary fields are re-derived from the children's variants, never kept from the group.
  const { price, availability, price_range, compare_at_price, requires_shipping, ...known } = record;
  return buildProductRecord({ ...known, variants });
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
    const { grouped, ...rest } = product;
    if (grouped === undefined) {
      resolved.push(product);
      continue;
    }
    const children = grouped.childIds
      .map((id) => byId.get(id))
      .filter((child): child is NormalisedProduct => child !== undefined && child.grouped === undefined);
    if (children.length > 0) {
      const variants = children.flatMap((child) => variantsOfChild(child.record));
      resolved.push({ ...rest, record: withVariants(product.record, variants) });
    } else if (grouped.ownPrice) {
      resolved.push(rest);
    } else {
      const reason = `is a grouped product with no price of its own and none of its children (${grouped.childIds.join(', ')}) in the catalog`;
      rejected.push(describeRejection(product.sourceId, reason, product.record.name));
    }
  }
  return { products: resolved, rejected };
}
