/**
 * One Markdown page per product at `/kb/products/<slug>.md`, generated from the canonical
 * record: YAML front matter with the record's key fields (written by gray-matter/js-yaml,
 * never by pasting strings), then the product's name, its description (the store's
 * structured Markdown when it has one, else the plain text made inert), the same fact lines
 * as the knowledge base (`renderProductSection`), and its variants. `readProductMarkdown`
 * reads a page back for the gate, which compares it with the catalog.
 */
import matter from 'gray-matter';
import type { Artifact } from '../artifact.js';
import { spillArtifact } from '../compact-artifact.js';
import type { ProductRecord } from '../model.js';
import type { BuildPlan, PlannedProduct } from '../plan.js';
import { mapProducts } from '../product-store/planned-products.js';
import { type CatalogFields, describeCatalogFields, facetedFragmentKind } from './catalog-fields.js';
import { renderProductSection, renderVariantTable } from './kb-product-section.js';
import { escapeMarkdownInline, escapeMarkdownParagraphs, shiftHeadings } from './markdown-text.js';
import { PRODUCT_MARKDOWN_DIR, productMarkdownFile } from './sitemap-pages.js';

export const PRODUCT_MARKDOWN_MEDIA_TYPE = 'text/markdown; charset=utf-8';

/** The front matter: the record's key fields, the ones an agent quotes. */
export interface ProductFrontMatter {
  id: string;
  slug: string;
  name: string;
  url: string;
  price: string;
  currency: string;
  availability: string;
  brand: string;
}

/**
 * `brand` is the record's, else the merchant's brand (the one the feed's g:brand states).
 * No build time: a page changes only when its product does, so a rebuild after one
 * product's change rewrites (and a host re-uploads) that product's page alone.
 */
export function productFrontMatter(record: ProductRecord, brand: string): ProductFrontMatter {
  return {
    id: record.id,
    slug: record.slug,
    name: record.name,
    url: record.url,
    price: record.price,
    currency: record.currency,
    availability: record.availability,
    brand: record.brand ?? brand,
  };
}

export function renderProductMarkdown(product: PlannedProduct, fields: CatalogFields, brand: string): string {
  const { record } = product;
  // The store's structured description sits below this page's own title.
  const description =
    product.descriptionMarkdown !== undefined
      ? shiftHeadings(product.descriptionMarkdown, 1)
      : record.description
        ? escapeMarkdownParagraphs(record.description)
        : '';
  // The knowledge base's fact lines (one `- Label: value` line each); the title and the
  // description are this page's own.
  const facts = renderProductSection(product, fields)
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .join('\n');
  const body = [
    `# ${escapeMarkdownInline(record.name)}`,
    '',
    ...(description !== '' ? [description, ''] : []),
    '## Details',
    '',
    facts,
    '',
    // The knowledge base's variant table (options, SKU, price, "was" price, availability).
    ...(record.variants.length > 1 || record.options.length > 0
      ? [shiftHeadings(renderVariantTable(record), -2), '']
      : []),
  ].join('\n');
  // A fresh options object keeps gray-matter from answering out of its process-wide cache.
  return matter.stringify(body, productFrontMatter(record, brand), {});
}

/** Each product's page as bytes, copied from the last build's fragments when the product did not change. */
export function productPageRenderer(plan: BuildPlan): ((product: PlannedProduct) => Buffer) & {
  /** The fragment kind of the pages, facets included: what a shard of them is keyed under too. */
  kind: string;
} {
  const fields = describeCatalogFields(plan);
  const kind = facetedFragmentKind('product-page', fields);
  const render = (product: PlannedProduct) =>
    plan.fragments.bytes(kind, product, () =>
      renderProductMarkdown(product, fields, plan.config.merchant.brand),
    );
  return Object.assign(render, { kind });
}

export function emitProductMarkdown(plan: BuildPlan): Artifact[] {
  const render = productPageRenderer(plan);
  return mapProducts(plan.products, (product) => {
    const bytes = render(product);
    return spillArtifact(
      { path: productMarkdownFile(product.record.slug), mediaType: PRODUCT_MARKDOWN_MEDIA_TYPE, body: '' },
      () => bytes,
    );
  });
}

export function isProductMarkdownFile(path: string): boolean {
  return path.startsWith(PRODUCT_MARKDOWN_DIR.slice(1)) && path.endsWith('.md');
}

/** The front matter of a product page, or why it cannot be read. */
export function readProductMarkdown(body: string): { data: Record<string, unknown> } | { error: string } {
  try {
    return { data: matter(body, {}).data };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
