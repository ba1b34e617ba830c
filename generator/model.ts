/**
 * The published data model, as the spec's part 2 tables define it (Catalog, Merchant,
 * Checkout, Product, Health, Error). The OpenAPI document built in `emit/openapi.ts` is
 * the one source of truth for the JSON Schemas; these types are their TypeScript mirror.
 */

export const AVAILABILITIES = ['in_stock', 'out_of_stock', 'coming_soon'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

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

/** Nutrition facts as the merchant writes them, e.g. { calories: 120, sugar_g: 24, serving: "12 fl oz" }. */
export type Nutrition = Readonly<Record<string, string | number>>;

/**
 * A product record. The spec marks no field required; the generator always fills the
 * identity, price and link fields, always writes the nullable ones (null when unknown)
 * and leaves out `flavor`, `packaging` and `shipping` when it has nothing for them.
 */
export interface Product {
  name: string;
  flavor?: string;
  slug: string;
  url: string;
  description: string | null;
  packaging?: string;
  ingredients: string[] | string | null;
  nutrition: Nutrition | null;
  benefits: string[] | null;
  certifications: string[] | null;
  price: string;
  currency: string;
  availability: Availability;
  shipping?: string;
  purchase_url: string;
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
}

export interface ErrorBody {
  error: string;
}
