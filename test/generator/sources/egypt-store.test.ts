/**
 * An Egyptian cable shop on Shopify (issue 31, item 2), in the shape of its storefront
 * `/products.json`, served page by page on loopback (limit 4): Arabic titles and handles,
 * handles with harakat (shadda before fatha, as typed, not in NFC's order), tatweel, a
 * Persian zero-width non-joiner, Arabic-Indic digits and a percent-encoded handle; EGP
 * prices as text; compare-at prices higher, equal, lower, null, "" and numbers; a product
 * met twice in the crawl (its stale copy ends page 1, the copy the store updated later,
 * now on sale, opens page 2).
 *
 * The store's sale prices were lost because the handle rule refused Shopify handles with
 * combining marks, tatweel or a join control, and percent-encoded ones: each such product
 * was left out whole, with every sale price on it. Every document and answer that carries a
 * compare-at price is read here and compared, variant by variant, with the store's data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { readKnowledgeBaseProducts } from '../../../generator/emit/kb-markdown.js';
import { productMarkdownPath } from '../../../generator/emit/sitemap-pages.js';
import {
  type ShopifyProduct,
  startUpstreamServer,
  type UpstreamServer,
} from '../../helpers/upstream-server.js';
import { type LiveBundle, liveBundleOf, liveFetch } from '../../live/live-bundle.js';
import { FIXTURES_DIR } from '../pipeline/helpers.js';
import { buildFromFixture, cleanUpFixtureBuild } from './build-from-fixture.js';

interface RawVariant {
  id: number;
  price: string;
  compare_at_price: string | number | null;
}
interface RawProduct {
  id: number;
  handle: string;
  updated_at: string;
  variants: RawVariant[];
}

const FIXTURE = join(FIXTURES_DIR, 'upstream', 'shopify-egypt-cables.json');
const CRAWL = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { products: RawProduct[] }).products;

/** Minor units of a decimal amount ("2985.66" → 298566); EGP has two minor digits. */
function minor(amount: string | number): number {
  return Math.round(Number(amount) * 100);
}

/**
 * The store's truth, worked out here from the raw data and not by the code under test: per
 * variant id, the compare-at price in minor units when the store gives one higher than the
 * price, else undefined. Of a product met twice, the copy updated later counts.
 */
function storeSalePrices(): Map<string, number | undefined> {
  const latest = new Map<number, RawProduct>();
  for (const product of CRAWL) {
    const kept = latest.get(product.id);
    if (kept === undefined || Date.parse(product.updated_at) > Date.parse(kept.updated_at)) {
      latest.set(product.id, product);
    }
  }
  const sale = new Map<string, number | undefined>();
  for (const product of latest.values()) {
    for (const variant of product.variants) {
      const was = variant.compare_at_price;
      const higher = was !== null && was !== '' && minor(was) > minor(variant.price);
      sale.set(String(variant.id), higher ? minor(was) : undefined);
    }
  }
  return sale;
}

const EXPECTED = storeSalePrices();
type SalePrices = Map<string, number | undefined>;

function body(artifacts: readonly Artifact[], path: string | RegExp): string {
  const found = artifacts.find((artifact) =>
    typeof path === 'string' ? artifact.path === path : path.test(artifact.path),
  );
  if (found === undefined) throw new Error(`the bundle has no ${String(path)}`);
  return found.body;
}

/** "2985.66 EGP" → 298566; '' → undefined. */
function minorOfMoney(text: string | undefined): number | undefined {
  const amount = text?.trim().split(' ')[0];
  return amount ? minor(amount) : undefined;
}

interface CatalogDocument {
  products: { slug: string; variants: { id: string; compare_at_price?: string }[] }[];
}

function fromCatalog(text: string): SalePrices {
  const catalog = JSON.parse(text) as CatalogDocument;
  return new Map(
    catalog.products.flatMap((product) =>
      product.variants.map((variant) => [
        variant.id,
        variant.compare_at_price === undefined ? undefined : minor(variant.compare_at_price),
      ]),
    ),
  );
}

/** Google's feed: `g:price` is the regular price and `g:sale_price` the price now. */
function fromFeed(xml: string): SalePrices {
  const parser = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'item' });
  const feed = parser.parse(xml) as { rss: { channel: { item: Record<string, string>[] } } };
  return new Map(
    feed.rss.channel.item.map((item) => [
      String(item['g:id']),
      item['g:sale_price'] === undefined ? undefined : minorOfMoney(item['g:price']),
    ]),
  );
}

/** UCP-shaped products (the ACP feed, lookup and get_product): `list_price` is the "was" price. */
interface UcpProduct {
  variants: { id: string; list_price?: { amount: number } }[];
}

function fromUcpProducts(products: readonly UcpProduct[]): SalePrices {
  return new Map(
    products.flatMap((product) =>
      product.variants.map((variant) => [variant.id, variant.list_price?.amount]),
    ),
  );
}

function fromJsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** OpenAI's feed: with a `sale_price`, `price` is the regular price. */
function fromOpenAi(text: string): SalePrices {
  const rows = fromJsonLines(text) as { item_id: string; price: string; sale_price?: string }[];
  return new Map(
    rows.map((row) => [row.item_id, row.sale_price === undefined ? undefined : minorOfMoney(row.price)]),
  );
}

/**
 * A product's Markdown (its knowledge-base section or its own page): the variants table's
 * "Was" column, or for a product without a choice of variants its "- Was:" line.
 */
function fromProductMarkdown(markdown: string, variantIds: readonly string[]): SalePrices {
  const lines = markdown.split('\n');
  const header = lines.find((line) => line.startsWith('| Variant ID |'));
  if (header === undefined) {
    const was = /^- Was: (.+) \(on sale\)$/m.exec(markdown)?.[1];
    return new Map(variantIds.map((id) => [id, minorOfMoney(was)]));
  }
  const column = header
    .split('|')
    .map((cell) => cell.trim())
    .indexOf('Was');
  const rows = lines
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return new Map(rows.map((cells) => [cells[1] ?? '', minorOfMoney(cells[column])]));
}

function fromKnowledgeBase(markdown: string, catalog: CatalogDocument): SalePrices {
  const variantsOf = new Map(
    catalog.products.map((product) => [product.slug, product.variants.map((v) => v.id)]),
  );
  const sale: SalePrices = new Map();
  for (const section of readKnowledgeBaseProducts(markdown)) {
    const ids = variantsOf.get(section.id) ?? [];
    if (section.variants.length > 0) {
      for (const row of section.variants) sale.set(row.id, minorOfMoney(row.was));
    } else {
      for (const id of ids) sale.set(id, minorOfMoney(section.facts.Was?.replace(' (on sale)', '')));
    }
  }
  return sale;
}

let store: UpstreamServer;
beforeAll(async () => {
  store = await startUpstreamServer({ shopify: CRAWL as unknown as ShopifyProduct[] });
});
afterAll(() => store.close());
afterEach(() => cleanUpFixtureBuild());

async function buildEgyptStore() {
  const built = await buildFromFixture(store.url, 'shopify', (config) => ({
    ...config,
    merchant: { ...(config.merchant as object), currency: 'EGP', ships_to: ['EG'] },
    upstream: { ...(config.upstream as object), page_size: 4 },
    agent_feeds: {
      openai: {
        enabled: true,
        seller_name: 'Fixture Juice',
        seller_url: 'https://fixture-juice.example',
        return_policy: 'https://fixture-juice.example/returns',
        store_country: 'EG',
      },
      acp: { enabled: true },
    },
  }));
  const { artifacts, plan } = built.result;
  const live = await liveBundleOf(
    artifacts,
    [...plan.products].map((product) => product.record),
    plan.config,
  );
  return { ...built, live };
}

async function postJson(live: LiveBundle, path: string, payload: unknown): Promise<unknown> {
  const response = await liveFetch(live)(`${live.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(payload),
  });
  expect(response.status, path).toBe(200);
  return response.json();
}

describe('an Egyptian cable shop with Arabic handles and sale prices', () => {
  it('when handles carry harakat, tatweel, a join control or percent-encoding then every product is published under the store’s handle', async () => {
    const { result, find } = await buildEgyptStore();
    const leftOut = result.warnings.filter((warning) => warning.code === 'PRODUCT_INVALID');
    expect(leftOut.map((warning) => warning.message)).toEqual([]);
    const handles = new Set(CRAWL.map((product) => decodeURIComponent(product.handle)));
    expect(new Set([...result.plan.products].map((product) => product.record.slug))).toEqual(handles);
    // The link is the store's own page for the handle as the store wrote it: no normalisation.
    const shadda = find('مُقَوَّى-إشارة-واي-فاي'.replace('\u064e\u0651', '\u0651\u064e')).record;
    expect(shadda.url).toBe(
      `https://fixture-juice.example/products/${encodeURIComponent('مُقَوَّى-إشارة-واي-فاي'.replace('\u064e\u0651', '\u0651\u064e'))}`,
    );
    expect(find('كابل-usb').record.url).toBe(
      'https://fixture-juice.example/products/%D9%83%D8%A7%D8%A8%D9%84-usb',
    );
    const sitemap = body(result.artifacts, 'sitemap.xml');
    for (const slug of handles) expect(sitemap).toContain(productMarkdownPath(slug));
  });

  it('when the store gives a higher compare-at price then every document and answer carries it for that variant, and none invents one', async () => {
    const { result, live } = await buildEgyptStore();
    const { artifacts } = result;
    const catalogText = body(artifacts, 'agent-catalog.json');
    const catalog = JSON.parse(catalogText) as CatalogDocument;
    const productIds = [...result.plan.products].map((product) => product.record.id);

    const pages: SalePrices = new Map();
    for (const product of catalog.products) {
      const response = await liveFetch(live)(`${live.siteUrl}${productMarkdownPath(product.slug)}`);
      expect(response.status, product.slug).toBe(200);
      const ids = product.variants.map((variant) => variant.id);
      for (const [id, was] of fromProductMarkdown(await response.text(), ids)) pages.set(id, was);
    }
    // A lookup by variant id answers with that variant (a product id names only its first).
    const lookup = (await postJson(live, '/ucp/catalog/lookup', { ids: [...EXPECTED.keys()] })) as {
      products: UcpProduct[];
    };
    const mcp: UcpProduct[] = [];
    for (const id of productIds) {
      const answer = (await postJson(live, '/mcp', {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_product', arguments: { catalog: { id } } },
      })) as { result: { structuredContent: { product: UcpProduct } } };
      mcp.push(answer.result.structuredContent.product);
    }

    const outputs: Record<string, SalePrices> = {
      'agent-catalog.json': fromCatalog(catalogText),
      'kb/products.json': fromCatalog(body(artifacts, 'kb/products.json')),
      'feed.xml': fromFeed(body(artifacts, 'feed.xml')),
      'ACP feed': fromUcpProducts(fromJsonLines(body(artifacts, 'feeds/acp/products.jsonl')) as UcpProduct[]),
      'OpenAI feed': fromOpenAi(body(artifacts, /^feeds\/openai\/shards\/.*\.jsonl/)),
      'knowledge base': fromKnowledgeBase(body(artifacts, /^kb\/.*-knowledge-base\.md$/), catalog),
      'product pages': pages,
      'UCP lookup': fromUcpProducts(lookup.products),
      'MCP get_product': fromUcpProducts(mcp),
    };
    const onSale = [...EXPECTED.values()].filter((was) => was !== undefined);
    expect(onSale).toHaveLength(15); // the fixture's sales, the updated copy's included
    for (const [name, published] of Object.entries(outputs)) {
      expect(Object.fromEntries(published), name).toEqual(Object.fromEntries(EXPECTED));
    }
    expect(outputs['agent-catalog.json']?.get(String(CRAWL[0]?.variants[0]?.id))).toBe(298566);
  });
});
