/**
 * The body of the Markdown knowledge base: the merchant, the usage rules, one section per
 * product and the merchant's articles. The same sections are inlined in `/llms-full.txt`.
 * Product sections have a fixed, line-oriented shape so other tools (and the bundle's
 * consistency check) can read them back with `readKnowledgeBaseProducts`:
 *
 *     ### <name>
 *
 *     - ID: <slug>
 *     - Link: <product URL>
 *     - Price: <amount> <currency>
 *     - Availability: <in_stock | out_of_stock | coming_soon>
 *     - ...one `- Label: value` line per other fact
 *
 *     #### Variants                      (when the product has a choice)
 *
 *     | Variant ID | <option>… | SKU | Price | Was | Availability |
 *
 * then the description. The section itself is written by `kb-product-section.ts`.
 */
import type { DocumentPiece } from '../document-pieces.js';
import type { BuildPlan } from '../plan.js';
import { catalogUrls } from './catalog.js';
import { describeCatalogFields, facetedFragmentKind } from './catalog-fields.js';
import { productElements } from './fragments.js';
import {
  renderProductSection,
  VARIANT_COLUMNS,
  VARIANT_ID_COLUMN,
  VARIANTS_HEADING,
} from './kb-product-section.js';
import {
  escapeMarkdownInline,
  escapeMarkdownParagraphs,
  readMarkdownTableRow,
  shiftHeadings,
  unescapeMarkdown,
} from './markdown-text.js';
import { resolveUsagePolicy, type UsagePolicy } from './usage-policy.js';

export const PRODUCTS_HEADING = '## Products';

function renderArticles(plan: BuildPlan): string[] {
  if (plan.articles.length === 0) return [];
  const sections = plan.articles.map((article) => {
    const lines = [`### ${escapeMarkdownInline(article.title)}`, ''];
    if (article.updated !== undefined) lines.push(`Updated: ${escapeMarkdownInline(article.updated)}`, '');
    if (article.description !== undefined) lines.push(`> ${escapeMarkdownInline(article.description)}`, '');
    // Articles are the merchant's own Markdown: kept as written, headings nested below "###".
    lines.push(shiftHeadings(article.body.trim(), 3));
    return lines.join('\n');
  });
  return ['## Articles', ...sections];
}

const sectionsByPlan = new WeakMap<BuildPlan, readonly DocumentPiece[]>();

/**
 * The knowledge base without its H1 title: `## About`, `## Usage rules`, `## Products`,
 * `## Articles`. The knowledge base and llms-full.txt both carry it, so while a bundle is
 * emitted its pieces are made once per plan (a plan is never changed after `planBuild`) and
 * reused; `emitBundle` forgets them afterwards (`forgetKnowledgeBaseSections`). The product
 * sections are the plan's elements, each read (copied from the cache, or rendered) when a
 * document is written, never joined into one buffer.
 */
export function renderKnowledgeBaseSections(plan: BuildPlan): readonly DocumentPiece[] {
  let sections = sectionsByPlan.get(plan);
  if (sections === undefined) {
    sections = renderSections(plan, resolveUsagePolicy(plan.config));
    sectionsByPlan.set(plan, sections);
  }
  return sections;
}

/** Drops the sections' pieces: the plan outlives emitting, and they hold its elements. */
export function forgetKnowledgeBaseSections(plan: BuildPlan): void {
  sectionsByPlan.delete(plan);
}

function renderSections(plan: BuildPlan, policy: UsagePolicy): DocumentPiece[] {
  const { config } = plan;
  const about = [
    '## About',
    '',
    ...(config.merchant.description === undefined
      ? []
      : [escapeMarkdownParagraphs(config.merchant.description), '']),
    `- Website: <${config.merchant.url}>`,
    `- Contact: ${escapeMarkdownInline(config.merchant.contact)}`,
    `- Currency: ${config.merchant.currency}`,
    `- Ships to: ${config.merchant.ships_to.join(', ')}`,
    `- Catalog API: <${catalogUrls(config).catalogUrl}>`,
    `- Generated: ${plan.generated}`,
  ].join('\n');
  const usage = [
    '## Usage rules',
    '',
    ...policy.rules.map((rule) => `- ${escapeMarkdownInline(rule.text)}`),
  ].join('\n');
  const fields = describeCatalogFields(plan);
  // A section reads the catalog-wide facets too (which seed facts every product lists):
  // they are part of its kind, so a change of facets renders every section again.
  const kind = facetedFragmentKind('kb-section', fields);
  const separator = Buffer.from('\n\n', 'utf8');
  const parts: DocumentPiece[] = [Buffer.from([about, usage, PRODUCTS_HEADING].join('\n\n'), 'utf8')];
  const elements = productElements(plan, kind, (product) => renderProductSection(product, fields));
  // Each section after a blank line: the first one's before the sections, the others' between them.
  if (elements.length > 0) parts.push(separator, { elements, between: separator });
  const articles = renderArticles(plan);
  if (articles.length > 0) parts.push(separator, Buffer.from(articles.join('\n\n'), 'utf8'));
  return parts;
}

/** One row of a product's variant table, as written. */
export interface KnowledgeBaseVariant {
  id: string;
  /** `<amount> <currency>`. */
  price: string;
  /** The "was" price, `<amount> <currency>`, or '' when not on sale. */
  was: string;
  availability: string;
}

export interface KnowledgeBaseProduct {
  name: string;
  id: string;
  link: string;
  price: string;
  availability: string;
  /** Every `- Label: value` line of the section, by label. */
  facts: Record<string, string>;
  /** The rows of the section's variant table; empty when it has none. */
  variants: KnowledgeBaseVariant[];
}

/**
 * Reads one variant table row; undefined for the delimiter row. The fixed columns are
 * found by position, never by name: the option columns between them carry the store's
 * own option names, and a store may well call an option "Availability" or "Price" (a
 * robot sold with "Availability: Pre-order"), which looked up by name read the option's
 * cell as the variant's availability and failed the build's own gate.
 */
function readVariantRow(
  header: readonly string[],
  cells: readonly string[],
): KnowledgeBaseVariant | undefined {
  if (cells.every((value) => /^-+$/.test(value))) return undefined;
  const fixed = header.length - VARIANT_COLUMNS.length;
  const cell = (name: (typeof VARIANT_COLUMNS)[number]) => cells[fixed + VARIANT_COLUMNS.indexOf(name)] ?? '';
  return {
    id: cells[0] ?? '',
    price: cell('Price'),
    was: cell('Was'),
    availability: cell('Availability'),
  };
}

/** A variant table's header as `renderVariantTable` writes it: the ID first, the fixed columns last. */
function isVariantHeader(cells: readonly string[]): boolean {
  const tail = cells.slice(cells.length - VARIANT_COLUMNS.length);
  return cells[0] === VARIANT_ID_COLUMN && VARIANT_COLUMNS.every((name, index) => tail[index] === name);
}

interface SectionScan {
  name: string;
  facts: Record<string, string>;
  variants: KnowledgeBaseVariant[];
  /** Where the variant table is being read: before it, its header seen, or done. */
  table: 'none' | 'heading' | string[] | 'done';
}

/** Feeds one line of a product section to the scan: a fact, or a line of the variant table. */
function scanSectionLine(current: SectionScan, line: string): void {
  if (line === VARIANTS_HEADING && current.table === 'none') {
    current.table = 'heading';
    return;
  }
  if (current.table === 'heading' || Array.isArray(current.table)) {
    const cells = readMarkdownTableRow(line);
    if (cells === undefined) {
      if (Array.isArray(current.table)) current.table = 'done';
      return;
    }
    if (current.table === 'heading') current.table = isVariantHeader(cells) ? cells : 'done';
    else {
      const variant = readVariantRow(current.table, cells);
      if (variant !== undefined) current.variants.push(variant);
    }
    return;
  }
  // Only a list item can be a fact: the description's lines (most of the document) skip the
  // regular expression. The variant table comes before any prose, so text from the store
  // after it (a description with its own "Variants" heading) can never pose as one.
  if (!line.startsWith('- ')) {
    if (current.table === 'none') current.table = 'done';
    return;
  }
  const fact = /^- ([A-Za-z ]+): (.*)$/.exec(line);
  if (fact?.[1] !== undefined && fact[2] !== undefined) current.facts[fact[1]] ??= unescapeMarkdown(fact[2]);
}

/** Reads the product sections back from a knowledge-base Markdown document. */
export function readKnowledgeBaseProducts(markdown: string): KnowledgeBaseProduct[] {
  return [...knowledgeBaseSectionsOfLines(markdown.replace(/\r\n?/g, '\n').split('\n'))];
}

function sectionOf({ name, facts, variants }: SectionScan): KnowledgeBaseProduct {
  return {
    name,
    id: facts.ID ?? '',
    link: (facts.Link ?? '').replace(/^<|>$/g, ''),
    price: facts.Price ?? '',
    availability: (facts.Availability ?? '').split(' ')[0] ?? '',
    facts,
    variants,
  };
}

/**
 * The product sections of a knowledge base's lines (line breaks already taken out), one at
 * a time as the lines are read: a 100,000-product knowledge base is never one array.
 */
export function* knowledgeBaseSectionsOfLines(lines: Iterable<string>): Generator<KnowledgeBaseProduct> {
  let inProducts = false;
  let current: SectionScan | undefined;
  for (const line of lines) {
    if (!inProducts) {
      inProducts = line === PRODUCTS_HEADING;
      continue;
    }
    if (line.startsWith('## ')) break;
    if (line.startsWith('### ')) {
      if (current !== undefined) yield sectionOf(current);
      current = { name: unescapeMarkdown(line.slice(4)), facts: {}, variants: [], table: 'none' };
      continue;
    }
    if (current !== undefined && line !== '') scanSectionLine(current, line);
  }
  if (current !== undefined) yield sectionOf(current);
}
