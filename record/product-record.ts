/**
 * The canonical product record: the one truth every document, the search index and the
 * live handler read. It is the seed's Product (spec part 2.4, every field optional for
 * clients, shapes unchanged) extended with what the store knows beyond it: its ids,
 * brand, category, tags, images, options and variants, price range and sale price, and
 * whether the product ships. Adapters fill it; documents never look at a store's raw
 * fields and never re-derive a price, an availability or an id (the rules that derive
 * the seed's `price` and `availability` from the variants are in `summarise-variants.ts`).
 *
 * The JSON Schema of the published record is built in `generator/emit/openapi-schemas.ts`;
 * these types are its TypeScript mirror. Pure: no I/O, safe to bundle for the edge.
 */

export const AVAILABILITIES = ['in_stock', 'out_of_stock', 'coming_soon'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** Nutrition facts as the merchant writes them, e.g. { calories: 120, sugar_g: 24, serving: "12 fl oz" }. */
export type Nutrition = Readonly<Record<string, string | number>>;

/** A product image, first image first (the featured one). */
export interface ProductImage {
  /** Absolute http(s) URL. */
  url: string;
  alt?: string;
  /** Pixels, when the store says. */
  width?: number;
  height?: number;
}

/** An option the shopper chooses, with its values in the store's order (Size: XS, S, M…). */
export interface ProductOption {
  name: string;
  values: string[];
}

/** One option value of a variant (Size: XS). */
export interface SelectedOption {
  name: string;
  value: string;
}

/** Decimal amounts as text with the currency's minor digits, as the seed's `price`. */
export interface PriceRange {
  min: string;
  max: string;
}

/** A purchasable variant: what a checkout takes, by the store's own variant id. */
export interface ProductVariant {
  /** The store's variant id; unique across the catalog. A product without store variants has one variant, whose id is the product's. */
  id: string;
  title: string;
  /** The page that opens on this variant (Shopify `?variant=<id>`), when the store has one; else the product's `url` applies. */
  url?: string;
  /** The option values that define it, in the product's option order; empty for a product without options. */
  options: SelectedOption[];
  sku?: string;
  /** Barcode (GTIN-8/12/13/14, UPC, EAN, ISBN) as the store gives it. */
  gtin?: string;
  price: string;
  /** The "was" price, present only when it is higher than `price`. */
  compare_at_price?: string;
  availability: Availability;
  /** URL of the variant's own image, when it has one. */
  image?: string;
  requires_shipping: boolean;
}

/**
 * The seed's Product, field for field and in the seed's order, followed by the optional
 * extensions. Clients that know only the seed's fields keep working: no seed field
 * changes shape or meaning, and no field is required.
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
  /** The lowest price among available variants (among all variants when none is available). */
  price: string;
  currency: string;
  availability: Availability;
  shipping?: string;
  purchase_url: string;
  // Extensions (not in the seed's table; see docs/spec.md).
  /** The store's stable product id. */
  id?: string;
  brand?: string;
  /** The store's product type. */
  category?: string;
  tags?: string[];
  images?: ProductImage[];
  options?: ProductOption[];
  variants?: ProductVariant[];
  /** Present only when the variants' prices differ. */
  price_range?: PriceRange;
  /** The "was" price of `price`, present only when every variant is on sale. */
  compare_at_price?: string;
  /** False for a digital product: no variant needs shipping. */
  requires_shipping?: boolean;
}

/** The record as the generator holds it: the extensions a build always knows are present. */
export interface ProductRecord extends Product {
  id: string;
  tags: string[];
  images: ProductImage[];
  options: ProductOption[];
  /** At least one; the first is the featured variant. */
  variants: ProductVariant[];
  requires_shipping: boolean;
}
