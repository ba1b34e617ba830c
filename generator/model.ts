/**
 * The published data model, as the spec's part 2 tables define it (Catalog, Merchant,
 * Checkout, Product, Health, Error). The OpenAPI document built in `emit/openapi.ts` is
 * the one source of truth for the JSON Schemas; these types are their TypeScript mirror.
 * The product record itself is owned by `record/product-record.ts` and re-exported here.
 */

export type {
  Availability,
  Nutrition,
  PriceRange,
  Product,
  ProductImage,
  ProductOption,
  ProductRecord,
  ProductVariant,
  SelectedOption,
} from '../record/product-record.js';
export { AVAILABILITIES } from '../record/product-record.js';

import type { Product } from '../record/product-record.js';

export interface Merchant {
  name: string;
  url: string;
  contact: string;
  currency: string;
  ships_to: string[];
}

export interface Checkout {
  type: 'redirect';
  note: string;
}

export interface Catalog {
  merchant: Merchant;
  generated: string;
  count: number;
  checkout?: Checkout;
  products: Product[];
}

export interface Health {
  status: 'ok';
  service: string;
  generated: string;
  cached: boolean;
  /** Present (true) only on a catalog with no product built with `--allow-empty`, so `check` accepts it. */
  allow_empty?: true;
}

export interface ErrorBody {
  error: string;
}
