/**
 * Which facts this merchant's products actually carry, computed once per plan from the
 * records, so every sentence that describes the catalog (llms.txt, the agent card, the
 * API description and its page, the knowledge base) names only those: a cable shop is
 * never promised "ingredients and nutrition", and no product section says "Nutrition:
 * not listed" for a field no product of the store has. A seed field counts as carried
 * when at least one product has a non-empty value for it.
 */
import { createHash } from 'node:crypto';
import type { ProductRecord } from '../model.js';
import type { BuildPlan, PlannedProducts } from '../plan.js';
import { recordsOf } from '../product-store/planned-products.js';

export interface CatalogFields {
  flavor: boolean;
  packaging: boolean;
  ingredients: boolean;
  nutrition: boolean;
  benefits: boolean;
  certifications: boolean;
  brand: boolean;
  images: boolean;
  /** Some product offers a choice of variants (more than one). */
  variants: boolean;
  /** Option names across the catalog, lower-cased, in first-seen order (size, color, length). */
  options: string[];
  /** Some product or variant has a "was" price. */
  salePrices: boolean;
}

/** The seed's Product fields only some merchants fill. */
export const SEED_FACETS = [
  'flavor',
  'packaging',
  'ingredients',
  'nutrition',
  'benefits',
  'certifications',
] as const;

type SeedFacet = (typeof SEED_FACETS)[number];

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** The facets of a catalog before any product is seen: none. */
export function noCatalogFields(): CatalogFields {
  return {
    flavor: false,
    packaging: false,
    ingredients: false,
    nutrition: false,
    benefits: false,
    certifications: false,
    brand: false,
    images: false,
    variants: false,
    options: [],
    salePrices: false,
  };
}

/** Adds what `record` carries to `fields` (in catalog order: option names keep their first-seen order). */
export function addCatalogFields(fields: CatalogFields, record: ProductRecord): void {
  for (const name of SEED_FACETS) if (!fields[name] && hasValue(record[name])) fields[name] = true;
  if (!fields.brand && hasValue(record.brand)) fields.brand = true;
  if (record.images.length > 0) fields.images = true;
  if (record.variants.length > 1) fields.variants = true;
  if (!fields.salePrices && record.variants.some((variant) => variant.compare_at_price !== undefined))
    fields.salePrices = true;
  for (const option of record.options) {
    const name = option.name.trim().toLowerCase();
    if (name !== '' && !fields.options.includes(name)) fields.options.push(name);
  }
}

/**
 * The facets of the records (pure; `describeCatalogFields` memoises it per plan), in one
 * pass: the plan's products may be read back from disk, one at a time.
 */
export function collectCatalogFields(records: Iterable<ProductRecord>): CatalogFields {
  const fields = noCatalogFields();
  for (const record of records) addCatalogFields(fields, record);
  return fields;
}

const fieldsByPlan = new WeakMap<BuildPlan, CatalogFields>();

/**
 * The facets a build took as it kept the products (catalog-tally.ts), by the list it kept
 * them in: the plans of one build share that list, and it never changes once kept.
 */
const fieldsByProducts = new WeakMap<PlannedProducts, CatalogFields>();

/** Remembers `fields` as `collectCatalogFields` of every record of `products`. */
export function rememberCatalogFields(products: PlannedProducts, fields: CatalogFields): void {
  fieldsByProducts.set(products, fields);
}

/**
 * The facets of the plan's catalog: those taken as its products were kept, else computed
 * once per plan (a plan never changes after `planBuild`).
 */
export function describeCatalogFields(plan: BuildPlan): CatalogFields {
  let fields = fieldsByProducts.get(plan.products) ?? fieldsByPlan.get(plan);
  if (fields === undefined) {
    fields = collectCatalogFields(recordsOf(plan.products));
    fieldsByPlan.set(plan, fields);
  }
  return fields;
}

/**
 * A fragment kind for a per-product text that also reads the catalog's facets (which seed
 * facts every product lists): when the facets change, every such fragment is rendered again.
 */
export function facetedFragmentKind(name: string, fields: CatalogFields): string {
  return `${name}:${createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 16)}`;
}

/** The most option names a sentence spells out; past it they are "options". */
const MAX_NAMED_OPTIONS = 3;

/** The facts a product carries, as words for a sentence: price and availability first. */
export function listCatalogFacts(fields: CatalogFields): string[] {
  const facts = ['price', 'availability'];
  if (fields.variants) {
    const named = fields.options.slice(0, MAX_NAMED_OPTIONS);
    facts.push(named.length === 0 ? 'variants' : `variants (${joinWords(named, 'or')})`);
  }
  if (fields.salePrices) facts.push('sale prices');
  if (fields.brand) facts.push('brand');
  if (fields.images) facts.push('images');
  const seed: [SeedFacet, string][] = [
    ['flavor', 'flavor'],
    ['packaging', 'packaging'],
    ['ingredients', 'ingredients'],
    ['nutrition', 'nutrition'],
    ['benefits', 'benefits'],
    ['certifications', 'certifications'],
  ];
  for (const [name, words] of seed) if (fields[name]) facts.push(words);
  return facts;
}

/** "a", "a and b", "a, b and c". */
export function joinWords(words: readonly string[], conjunction = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The facts of the plan's products as one phrase, e.g. "price, availability, images and packaging". */
export function describeCatalogFacts(fields: CatalogFields): string {
  return joinWords(listCatalogFacts(fields));
}
