/**
 * One product's section of the knowledge base (and of llms-full.txt), from its record:
 * the fixed `- Label: value` facts `readKnowledgeBaseProducts` reads back, a facts line
 * only for a field this merchant's products carry (`catalog-fields.ts`), the images and
 * brand, the variants as a Markdown table (options, price, "was" price, availability),
 * and the description, as the store's structured Markdown (a size chart stays a table)
 * when the plan has it. Every text value goes through the Markdown helpers, never by hand.
 */
import type { Nutrition, Product, ProductRecord, ProductVariant } from '../model.js';
import type { PlannedProduct } from '../plan.js';
import type { CatalogFields } from './catalog-fields.js';
import {
  escapeMarkdownInline,
  escapeMarkdownParagraphs,
  formatMarkdownLink,
  formatMarkdownTable,
  shiftHeadings,
} from './markdown-text.js';
import { requireAbsoluteUrl, sanitizeXmlText } from './xml-text.js';

const NOT_LISTED = 'not listed';
/** The heading above a product's variant table; the reader finds the table by it. */
export const VARIANTS_HEADING = '#### Variants';
/** Fixed columns of the variant table; the option columns sit between ID and Price. */
export const VARIANT_ID_COLUMN = 'Variant ID';
export const VARIANT_COLUMNS = ['SKU', 'Price', 'Was', 'Availability'] as const;

const AVAILABILITY_WORDS: Readonly<Record<Product['availability'], string>> = {
  in_stock: 'in stock',
  out_of_stock: 'out of stock',
  coming_soon: 'coming soon, not yet for sale',
};

function listOrText(value: readonly string[] | string | null): string {
  if (value === null) return NOT_LISTED;
  const text = typeof value === 'string' ? value : value.join('; ');
  const escaped = escapeMarkdownInline(text);
  return escaped === '' ? NOT_LISTED : escaped;
}

function describeNutrition(nutrition: Nutrition | null): string {
  if (nutrition === null) return NOT_LISTED;
  const entries = Object.entries(nutrition).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return NOT_LISTED;
  return escapeMarkdownInline(entries.map(([key, value]) => `${key} ${value}`).join('; '));
}

function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

/** The seed's food-shop facts, each only when some product of this merchant carries the field. */
function seedFactLines(product: ProductRecord, fields: CatalogFields): string[] {
  const lines: string[] = [];
  if (product.flavor !== undefined) lines.push(`- Flavor: ${escapeMarkdownInline(product.flavor)}`);
  if (product.packaging !== undefined) lines.push(`- Packaging: ${escapeMarkdownInline(product.packaging)}`);
  if (fields.ingredients) lines.push(`- Ingredients: ${listOrText(product.ingredients)}`);
  if (fields.nutrition) lines.push(`- Nutrition: ${describeNutrition(product.nutrition)}`);
  if (fields.benefits) lines.push(`- Benefits: ${listOrText(product.benefits)}`);
  if (fields.certifications) lines.push(`- Certifications: ${listOrText(product.certifications)}`);
  return lines;
}

function imageLine(product: ProductRecord): string[] {
  if (product.images.length === 0) return [];
  const links = product.images.map((image, index) =>
    formatMarkdownLink(
      image.alt ?? `${product.name} image ${index + 1}`,
      requireAbsoluteUrl(image.url, { product: product.slug, field: `images[${index}].url` }),
    ),
  );
  return [`- Images: ${links.join(', ')}`];
}

function offerLines(product: ProductRecord): string[] {
  const lines: string[] = [];
  const range = product.price_range;
  if (range !== undefined) {
    lines.push(
      `- Price range: ${escapeMarkdownInline(`${range.min} to ${money(range.max, product.currency)}`)}`,
    );
  }
  if (product.compare_at_price !== undefined) {
    lines.push(`- Was: ${escapeMarkdownInline(money(product.compare_at_price, product.currency))} (on sale)`);
  }
  if (product.brand !== undefined) lines.push(`- Brand: ${escapeMarkdownInline(product.brand)}`);
  if (product.category !== undefined) lines.push(`- Category: ${escapeMarkdownInline(product.category)}`);
  return lines;
}

function shippingLines(product: ProductRecord): string[] {
  if (!product.requires_shipping) return ['- Delivery: digital, nothing is shipped'];
  return product.shipping === undefined ? [] : [`- Shipping: ${escapeMarkdownInline(product.shipping)}`];
}

const FIXED_COLUMN_NAMES = new Set([VARIANT_ID_COLUMN, ...VARIANT_COLUMNS].map((name) => name.toLowerCase()));

/**
 * An option's column header: its name, marked "(option)" when a store's option shares a
 * fixed column's name (a robot sold with "Availability: Pre-order"), so a reader of the
 * table never meets two "Availability" columns.
 */
function optionHeader(name: string): string {
  return FIXED_COLUMN_NAMES.has(name.toLowerCase()) ? `${name} (option)` : name;
}

/** The variant table: one row per variant, the product's options as columns. */
export function renderVariantTable(product: ProductRecord): string {
  const optionNames = product.options.map((option) => option.name);
  const header = [VARIANT_ID_COLUMN, ...optionNames.map(optionHeader), ...VARIANT_COLUMNS];
  const row = (variant: ProductVariant) => [
    variant.id,
    ...optionNames.map((name) => variant.options.find((option) => option.name === name)?.value ?? ''),
    variant.sku ?? '',
    money(variant.price, product.currency),
    variant.compare_at_price === undefined ? '' : money(variant.compare_at_price, product.currency),
    variant.availability,
  ];
  return [VARIANTS_HEADING, '', formatMarkdownTable(header, product.variants.map(row))].join('\n');
}

/** A choice worth a table: more than one variant, or options to name. */
function hasVariantTable(product: ProductRecord): boolean {
  return product.variants.length > 1 || product.options.length > 0;
}

function renderDescription(planned: PlannedProduct): string {
  // The store's own structure (tables, lists), already Markdown. Its headings go below
  // level 4, so none can pose as the section's own "#### Variants" table heading.
  if (planned.descriptionMarkdown !== undefined) {
    return shiftHeadings(sanitizeXmlText(planned.descriptionMarkdown).trim(), 4);
  }
  const { description } = planned.record;
  return description === null ? '' : escapeMarkdownParagraphs(description);
}

/** One product section; URLs are checked, every text value is made inert. */
export function renderProductSection(planned: PlannedProduct, fields: CatalogFields): string {
  const product = planned.record;
  const link = requireAbsoluteUrl(product.url, { product: product.slug, field: 'url' });
  const lines = [
    `### ${escapeMarkdownInline(product.name)}`,
    '',
    `- ID: ${escapeMarkdownInline(product.slug)}`,
    `- Link: <${link}>`,
    `- Price: ${escapeMarkdownInline(money(product.price, product.currency))}`,
    `- Availability: ${product.availability} (${AVAILABILITY_WORDS[product.availability]})`,
    ...offerLines(product),
    ...seedFactLines(product, fields),
    ...shippingLines(product),
    ...imageLine(product),
  ];
  if (product.purchase_url !== product.url) {
    lines.push(
      `- Purchase: <${requireAbsoluteUrl(product.purchase_url, { product: product.slug, field: 'purchase_url' })}>`,
    );
  }
  if (hasVariantTable(product)) lines.push('', renderVariantTable(product));
  const description = renderDescription(planned);
  if (description !== '') lines.push('', description);
  return lines.join('\n');
}
