/**
 * The bench's baseline for the live search: a plain linear scan over the published
 * catalog JSON, answering `POST {base_url}/ucp/catalog/search` in the same handler (the
 * request body, the asset reader and the JSON answer are the core's; only the search is
 * a scan). Every query parses nothing but the request: the catalog is parsed once per
 * isolate, as the core keeps its index. Like the core, it visits every product (a page and
 * its cursor need every match, not the first few). Bench only; never shipped in a bundle.
 */

interface ScanProduct {
  id: string;
  name: string;
  description?: string;
  brand?: string;
  category?: string;
  tags?: string[];
  price: string;
}

export interface ScanRequest {
  query?: string;
  filters?: { price?: { min?: number; max?: number } };
  pagination?: { limit?: number };
}

export interface ScanCatalog {
  products: ScanProduct[];
  text: string[];
}

/** The catalog as the scan reads it: products and their lower-cased text, built once. */
export function prepareScan(catalogText: string): ScanCatalog {
  const products = (JSON.parse(catalogText) as { products: ScanProduct[] }).products;
  const text = products.map((product) =>
    [product.name, product.description, product.brand, product.category, ...(product.tags ?? [])]
      .join(' ')
      .toLowerCase(),
  );
  return { products, text };
}

let catalog: Promise<ScanCatalog> | undefined;

function loadCatalog(readAsset: (path: string) => Promise<string | undefined>) {
  catalog ??= readAsset('agent-catalog.json').then((text) => prepareScan(text ?? '{"products":[]}'));
  return catalog;
}

/** Minor units of a decimal price with two digits (the bench's catalogs are in USD). */
function minorUnits(price: string): number {
  return Math.round(Number(price) * 100);
}

/** Every product the request matches, in catalog order: the search step alone. */
export function scanMatches({ products, text }: ScanCatalog, body: ScanRequest): ScanProduct[] {
  const terms = (body.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const min = body.filters?.price?.min ?? Number.NEGATIVE_INFINITY;
  const max = body.filters?.price?.max ?? Number.POSITIVE_INFINITY;
  const found: ScanProduct[] = [];
  for (const [index, product] of products.entries()) {
    const amount = minorUnits(product.price);
    if (amount < min || amount > max) continue;
    const haystack = text[index] ?? '';
    if (!terms.every((term) => haystack.includes(term))) continue;
    found.push(product);
  }
  return found;
}

export function isScanSearch(request: Request): boolean {
  return request.method === 'POST' && new URL(request.url).pathname.endsWith('/ucp/catalog/search');
}

export async function scanSearch(
  request: Request,
  readAsset: (path: string) => Promise<string | undefined>,
): Promise<Response> {
  const body = (await request.json()) as ScanRequest;
  const found = scanMatches(await loadCatalog(readAsset), body);
  const limit = Math.min(body.pagination?.limit ?? 10, 50);
  return Response.json({ products: found.slice(0, limit), pagination: { total: found.length } });
}
