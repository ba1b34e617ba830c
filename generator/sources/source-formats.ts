/**
 * The upstream formats a build can read, named once for the config schema, the
 * `--source-format` flag and the adapters. `shopify_admin` is Shopify's Admin GraphQL API
 * (a bulk export), for stores past the storefront's 25,000-product cap; its products are
 * mapped as the storefront's are, so the record does not depend on which door was used.
 */
export const SOURCE_FORMATS = ['native', 'shopify', 'shopify_admin', 'woocommerce'] as const;

export type SourceFormat = (typeof SOURCE_FORMATS)[number];
