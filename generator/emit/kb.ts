/**
 * The knowledge base: `/kb/products.json` (the catalog's Product records, unchanged so the
 * schema gate validates them, with the source and usage terms around them) and
 * `/kb/<merchant-slug>-knowledge-base.md` (Markdown with YAML front matter written by
 * gray-matter/js-yaml, never by string concatenation). `checkKnowledgeBase` validates
 * both from their text: JSON shape, front matter keys, and every product of the JSON
 * present in the Markdown with the same link, price and availability.
 */
import matter from 'gray-matter';
import type { Artifact } from '../artifact.js';
import { chunkedArtifact } from '../compact-artifact.js';
import type { Product } from '../model.js';
import type { BuildPlan } from '../plan.js';
import { isRecord } from '../validate/bundle-layout.js';
import { kbEnvelopeOf, kbProductsOf } from '../validate/listed-records.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { catalogUrls } from './catalog.js';
import { recordsJsonArtifact } from './fragments.js';
import { type KnowledgeBaseProduct, renderKnowledgeBaseSections } from './kb-markdown.js';
import {
  type KnowledgeBaseFrontMatter,
  type KnowledgeBaseStream,
  streamKnowledgeBase,
} from './kb-reading.js';
import { type ComparedFacts, comparedDigest, indexSections, sectionFactsOf } from './kb-section-digests.js';
import { escapeMarkdownInline } from './markdown-text.js';
import { filePathOf, KB_PRODUCTS_PATH, knowledgeBasePath } from './sitemap-pages.js';
import { resolveUsagePolicy } from './usage-policy.js';

export const KB_PRODUCTS_FILE = filePathOf(KB_PRODUCTS_PATH);
export const KB_MARKDOWN_MEDIA_TYPE = 'text/markdown; charset=utf-8';
const KB_MARKDOWN_FILE = /^kb\/[a-z0-9-]+-knowledge-base\.md$/;
const REQUIRED_FRONT_MATTER = ['title', 'source', 'generated', 'license'] as const;

export function emitKnowledgeBase(plan: BuildPlan): Artifact[] {
  const { config } = plan;
  const policy = resolveUsagePolicy(config);
  const source = catalogUrls(config).catalogUrl;
  const usage = {
    attribution: policy.attribution,
    license: policy.license,
    training: policy.allowTraining ? 'permitted' : 'not permitted',
    automated_purchases: 'not permitted',
    requests_per_minute: policy.requestsPerMinute,
    terms: policy.termsUrl,
  };
  const json = {
    merchant: plan.catalog.merchant,
    generated: plan.generated,
    source,
    usage,
    count: plan.catalog.count,
  };
  const title = `${config.merchant.name} knowledge base`;
  const frontMatter = {
    title,
    source,
    generated: plan.generated,
    license: policy.license,
    usage,
    merchant: config.merchant.name,
    products: plan.catalog.count,
    articles: plan.articles.length,
  };
  // Front matter by gray-matter (written for a one-character body, then cut before it),
  // then the body as bytes: the sections hold every product.
  const frontMatterBlock = matter.stringify('x', frontMatter, {}).slice(0, -2);
  const markdown = [
    Buffer.from(`${frontMatterBlock}# ${escapeMarkdownInline(title)}\n\n`, 'utf8'),
    ...renderKnowledgeBaseSections(plan),
    Buffer.from('\n', 'utf8'),
  ];
  return [
    recordsJsonArtifact(plan, { path: KB_PRODUCTS_FILE, mediaType: 'application/json' }, json),
    chunkedArtifact(
      { path: filePathOf(knowledgeBasePath(config)), mediaType: KB_MARKDOWN_MEDIA_TYPE, body: '' },
      markdown,
    ),
  ];
}

/** The records of `entries` that are objects, walked as they are read (not gathered: a big catalog's are read back from disk). */
function* recordsAmong(entries: Iterable<unknown>): Generator<Product> {
  for (const entry of entries) if (isRecord(entry)) yield entry as unknown as Product;
}

function readProductsJson(files: BundleFiles): { products: Iterable<Product>; problems: string[] } {
  // The envelope once per bundle; the records walked each time (the file can hold 1,000,000 products).
  const envelope = kbEnvelopeOf(files);
  if (envelope === undefined || !envelope.ok) return { products: [], problems: ['not valid JSON'] };
  const parsed = envelope.value;
  const entries = kbProductsOf(files);
  if (!isRecord(parsed) || envelope.records === undefined || entries === undefined) {
    return { products: [], problems: ['expected an object with a products array'] };
  }
  const problems: string[] = [];
  if (parsed.count !== envelope.records) problems.push('count does not equal the number of products');
  for (const key of ['merchant', 'generated', 'source', 'usage']) {
    if (parsed[key] === undefined) problems.push(`missing ${key}`);
  }
  return { products: { [Symbol.iterator]: () => recordsAmong(entries) }, problems };
}

export interface KnowledgeBaseReading {
  /** The front matter's values, and whether the body has an H1 title: not the body itself. */
  frontMatter: KnowledgeBaseFrontMatter;
  /** The product sections, without their other facts. */
  products: Omit<KnowledgeBaseProduct, 'facts'>[];
}

/**
 * The knowledge-base Markdown at `path` with its sections gathered, for a caller that needs
 * them all at once; the gate's checkers walk `streamKnowledgeBase` instead, and nothing
 * here is kept for the bundle.
 */
export function readKnowledgeBase(files: BundleFiles, path: string): KnowledgeBaseReading | undefined {
  const reading = streamKnowledgeBase(files, path);
  if (reading === undefined) return undefined;
  const products = Array.from(reading.sections, ({ facts, ...section }) => section);
  return { frontMatter: reading.frontMatter, products };
}

/** A product of products.json the knowledge base has no section for, or whose section's facts may differ. */
interface Pending {
  slug: string;
  /** What its section must state; undefined when it has no section. */
  expected?: ComparedFacts;
}

function checkMarkdown(path: string, reading: KnowledgeBaseStream, products: Iterable<Product>): Problem[] {
  const problems: Problem[] = [];
  const problem = (rule: string, message: string) => problems.push({ path, rule, message });
  const { frontMatter } = reading;
  if (!frontMatter.ok) {
    problem('front-matter', `front matter is not valid YAML: ${frontMatter.error}`);
    return problems;
  }
  const { data, hasTitle } = frontMatter;
  for (const key of REQUIRED_FRONT_MATTER) {
    if (typeof data[key] !== 'string' || data[key] === '')
      problem('front-matter', `front matter has no ${key}`);
  }
  if (!hasTitle) problem('markdown', 'no H1 title');
  // The sections as digests; only the products that may differ are kept, in their order.
  const sections = indexSections(reading.sections);
  const pending: Pending[] = [];
  let count = 0;
  for (const product of products) {
    count += 1;
    // A record without a slug (the schema check reports it) has no section.
    const facts = typeof product.slug === 'string' ? sections.factsOf(product.slug) : undefined;
    const expected = {
      link: product.url,
      price: `${product.price} ${product.currency}`,
      availability: product.availability,
    };
    if (facts === undefined) pending.push({ slug: product.slug });
    else if (facts !== comparedDigest(expected)) pending.push({ slug: product.slug, expected });
  }
  // The sections of the products whose facts' digest differed, read again to say what differs.
  const differing = new Set(pending.flatMap(({ slug, expected }) => (expected === undefined ? [] : [slug])));
  const stated =
    differing.size === 0 ? new Map<string, ComparedFacts>() : sectionFactsOf(reading.sections, differing);
  for (const { slug, expected } of pending) {
    const section = stated.get(slug);
    if (expected === undefined || section === undefined) {
      problem('kb', `product ${slug} is in products.json but not in the knowledge base`);
      continue;
    }
    if (section.link !== expected.link) problem('kb', `product ${slug}: link differs from products.json`);
    if (section.price !== expected.price) problem('kb', `product ${slug}: price differs from products.json`);
    if (section.availability !== expected.availability)
      problem('kb', `product ${slug}: availability differs from products.json`);
  }
  if (sections.size !== count) problem('kb', 'the knowledge base and products.json list different products');
  return problems;
}

export function checkKnowledgeBase(files: BundleFiles): Problem[] {
  // Its presence only: the records are read once per bundle by readProductsJson, and reading
  // the text here too decoded 10,000 products' records for nothing.
  const hasJson = files.has(KB_PRODUCTS_FILE);
  const markdownPaths = [...files.keys()].filter((path) => KB_MARKDOWN_FILE.test(path));
  const problems: Problem[] = [];
  if (!hasJson) problems.push({ path: KB_PRODUCTS_FILE, rule: 'missing', message: 'missing' });
  if (markdownPaths.length !== 1) {
    problems.push({
      path: 'kb/',
      rule: 'missing',
      message: `expected one kb/<merchant-slug>-knowledge-base.md, found ${markdownPaths.length}`,
    });
  }
  if (!hasJson) return problems;
  const { products, problems: jsonProblems } = readProductsJson(files);
  problems.push(...jsonProblems.map((message) => ({ path: KB_PRODUCTS_FILE, rule: 'kb', message })));
  for (const path of markdownPaths) {
    const reading = streamKnowledgeBase(files, path);
    if (reading !== undefined) problems.push(...checkMarkdown(path, reading, products));
  }
  return problems;
}
