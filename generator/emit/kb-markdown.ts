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
 */
import type { Nutrition, Product } from '../model.js';
import type { BuildPlan } from '../plan.js';
import { catalogUrls } from './catalog.js';
import { escapeMarkdownInline, escapeMarkdownParagraphs, shiftHeadings } from './markdown-text.js';
import { resolveUsagePolicy, type UsagePolicy } from './usage-policy.js';
import { requireAbsoluteUrl } from './xml-text.js';

export const PRODUCTS_HEADING = '## Products';
const NOT_LISTED = 'not listed';

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

/** One product section; the URL is checked, every text value is made inert. */
export function renderProductSection(product: Product): string {
  const link = requireAbsoluteUrl(product.url, { product: product.slug, field: 'url' });
  const lines = [
    `### ${escapeMarkdownInline(product.name)}`,
    '',
    `- ID: ${escapeMarkdownInline(product.slug)}`,
    `- Link: <${link}>`,
    `- Price: ${escapeMarkdownInline(`${product.price} ${product.currency}`)}`,
    `- Availability: ${product.availability} (${AVAILABILITY_WORDS[product.availability]})`,
  ];
  if (product.flavor !== undefined) lines.push(`- Flavor: ${escapeMarkdownInline(product.flavor)}`);
  if (product.packaging !== undefined) lines.push(`- Packaging: ${escapeMarkdownInline(product.packaging)}`);
  lines.push(
    `- Ingredients: ${listOrText(product.ingredients)}`,
    `- Nutrition: ${describeNutrition(product.nutrition)}`,
    `- Benefits: ${listOrText(product.benefits)}`,
    `- Certifications: ${listOrText(product.certifications)}`,
  );
  if (product.shipping !== undefined) lines.push(`- Shipping: ${escapeMarkdownInline(product.shipping)}`);
  if (product.purchase_url !== product.url) {
    lines.push(
      `- Purchase: <${requireAbsoluteUrl(product.purchase_url, { product: product.slug, field: 'purchase_url' })}>`,
    );
  }
  const description = product.description === null ? '' : escapeMarkdownParagraphs(product.description);
  if (description !== '') lines.push('', description);
  return lines.join('\n');
}

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

const sectionsByPlan = new WeakMap<BuildPlan, string>();

/**
 * The knowledge base without its H1 title: `## About`, `## Usage rules`, `## Products`,
 * `## Articles`. The knowledge base and llms-full.txt both carry it, so while a bundle is
 * emitted it is rendered once per plan (a plan is never changed after `planBuild`) and
 * the text reused; `emitBundle` forgets it afterwards (`forgetKnowledgeBaseSections`).
 */
export function renderKnowledgeBaseSections(plan: BuildPlan): string {
  let sections = sectionsByPlan.get(plan);
  if (sections === undefined) {
    sections = renderSections(plan, resolveUsagePolicy(plan.config));
    sectionsByPlan.set(plan, sections);
  }
  return sections;
}

/** Drops the rendered sections: the plan outlives emitting, and they are megabytes. */
export function forgetKnowledgeBaseSections(plan: BuildPlan): void {
  sectionsByPlan.delete(plan);
}

function renderSections(plan: BuildPlan, policy: UsagePolicy): string {
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
  const products = [PRODUCTS_HEADING, ...plan.catalog.products.map(renderProductSection)];
  return [about, usage, ...products, ...renderArticles(plan)].join('\n\n');
}

export interface KnowledgeBaseProduct {
  name: string;
  id: string;
  link: string;
  price: string;
  availability: string;
  /** Every `- Label: value` line of the section, by label. */
  facts: Record<string, string>;
}

function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Reads the product sections back from a knowledge-base Markdown document. */
export function readKnowledgeBaseProducts(markdown: string): KnowledgeBaseProduct[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.indexOf(PRODUCTS_HEADING);
  if (start < 0) return [];
  const products: KnowledgeBaseProduct[] = [];
  let current: { name: string; facts: Record<string, string> } | undefined;
  const finish = () => {
    if (current === undefined) return;
    const { name, facts } = current;
    products.push({
      name,
      id: facts.ID ?? '',
      link: (facts.Link ?? '').replace(/^<|>$/g, ''),
      price: facts.Price ?? '',
      availability: (facts.Availability ?? '').split(' ')[0] ?? '',
      facts,
    });
  };
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.startsWith('## ')) break;
    if (line.startsWith('### ')) {
      finish();
      current = { name: unescapeMarkdown(line.slice(4)), facts: {} };
      continue;
    }
    // Only a list item inside a section can be a fact: the description's lines (most of
    // the document) skip the regular expression.
    if (current === undefined || !line.startsWith('- ')) continue;
    const fact = /^- ([A-Za-z ]+): (.*)$/.exec(line);
    if (fact?.[1] !== undefined && fact[2] !== undefined) {
      current.facts[fact[1]] ??= unescapeMarkdown(fact[2]);
    }
  }
  finish();
  return products;
}
