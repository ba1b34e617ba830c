/**
 * The baseline the build is measured against: only the irreducible work of turning a
 * Shopify products.json into the seven data-heavy documents of a bundle, with no
 * validation, no templates and no abstractions (issue 14). Read the file, JSON.parse, map
 * each item to the Product record, then write the catalog and `kb/products.json` with
 * JSON.stringify (indented, as the build writes them), and the Markdown knowledge base,
 * `llms-full.txt`, `llms.txt`, a Merchant Center feed and a sitemap built with plain
 * strings. Run as its own process (`node lib/scripts/bench/baseline.js <products.json>
 * <out-dir>`) so its wall time, CPU time and peak RSS compare directly with the CLI's.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SITE = 'https://pomona-juice.example';

interface Variant {
  price: string;
  available: boolean;
}

interface Item {
  title: string;
  handle: string;
  body_html: string;
  tags: string[];
  variants: Variant[];
}

interface Product {
  name: string;
  slug: string;
  url: string;
  description: string | null;
  ingredients: null;
  nutrition: null;
  benefits: null;
  certifications: null;
  price: string;
  currency: string;
  availability: 'in_stock' | 'out_of_stock' | 'coming_soon';
  purchase_url: string;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&nbsp;': ' ',
};

function toText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function mapProduct(item: Item): Product {
  const available = item.variants.filter((variant) => variant.available);
  const priced = available.length > 0 ? available : item.variants;
  const cheapest = priced.reduce((low, variant) =>
    Number(variant.price) < Number(low.price) ? variant : low,
  );
  const url = `${SITE}/products/${item.handle}`;
  return {
    name: item.title,
    slug: item.handle,
    url,
    description: toText(item.body_html) || null,
    ingredients: null,
    nutrition: null,
    benefits: null,
    certifications: null,
    price: cheapest.price,
    currency: 'USD',
    availability: item.tags.includes('coming-soon')
      ? 'coming_soon'
      : available.length > 0
        ? 'in_stock'
        : 'out_of_stock',
    purchase_url: url,
  };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function buildFeed(products: readonly Product[]): string {
  const items = products.map(
    (p) =>
      `<item><g:id>${escapeXml(p.slug)}</g:id><title>${escapeXml(p.name)}</title><description>${escapeXml(p.description ?? p.name)}</description><link>${escapeXml(p.url)}</link><g:price>${p.price} ${p.currency}</g:price><g:availability>${p.availability === 'in_stock' ? 'in_stock' : p.availability === 'coming_soon' ? 'preorder' : 'out_of_stock'}</g:availability><g:condition>new</g:condition></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Pomona</title><link>${SITE}</link><description>Products</description>${items.join('\n')}</channel></rss>\n`;
}

function markdownSection(p: Product): string {
  return `### ${p.name}\n\n- ID: ${p.slug}\n- Link: <${p.url}>\n- Price: ${p.price} ${p.currency}\n- Availability: ${p.availability}\n\n${p.description ?? ''}\n`;
}

function buildKnowledgeBase(products: readonly Product[]): string {
  const head = `---\ntitle: Pomona knowledge base\nproducts: ${products.length}\n---\n# Pomona knowledge base\n\n## Products\n\n`;
  return head + products.map(markdownSection).join('\n');
}

function buildLlmsFull(products: readonly Product[]): string {
  return `# Pomona\n\n> Products for AI agents.\n\n## Products\n\n${products.map(markdownSection).join('\n')}`;
}

function buildLlms(products: readonly Product[]): string {
  const lines = products.map(
    (p) => `- [${p.name}](${p.url}): ${p.price} ${p.currency}; ${p.availability}; ${p.description ?? ''}`,
  );
  return `# Pomona\n\n> Products for AI agents.\n\n## Products\n\n${lines.join('\n')}\n`;
}

function buildSitemap(products: readonly Product[]): string {
  const urls = products.map((p) => `<url><loc>${escapeXml(p.url)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('\n')}</urlset>\n`;
}

async function main(source: string, out: string): Promise<void> {
  const document = JSON.parse(await readFile(source, 'utf8')) as { products: Item[] };
  const products = document.products.map(mapProduct);
  const catalog = {
    merchant: {
      name: 'Pomona Juice Co.',
      url: SITE,
      contact: 'hello@pomona-juice.example',
      currency: 'USD',
      ships_to: ['US'],
    },
    generated: new Date().toISOString(),
    count: products.length,
    products,
  };
  await mkdir(join(out, 'kb'), { recursive: true });
  await Promise.all([
    writeFile(join(out, 'agent-catalog.json'), JSON.stringify(catalog, null, 2)),
    writeFile(
      join(out, 'kb', 'products.json'),
      JSON.stringify({ merchant: catalog.merchant, generated: catalog.generated, products }, null, 2),
    ),
    writeFile(join(out, 'kb', 'pomona-knowledge-base.md'), buildKnowledgeBase(products)),
    writeFile(join(out, 'llms-full.txt'), buildLlmsFull(products)),
    writeFile(join(out, 'llms.txt'), buildLlms(products)),
    writeFile(join(out, 'feed.xml'), buildFeed(products)),
    writeFile(join(out, 'sitemap.xml'), buildSitemap(products)),
  ]);
}

const [source, out] = process.argv.slice(2);
if (source === undefined || out === undefined) {
  process.stderr.write('usage: baseline.js <products.json> <out-dir>\n');
  process.exitCode = 2;
} else {
  await main(source, out);
}
