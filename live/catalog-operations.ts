/**
 * The three catalog operations over the bundle's live data, shared by MCP and UCP REST:
 * search (full text, filters, cursor pages), batch lookup by product or variant id, and
 * get-product. Each returns UCP's response object (release 2026-04-08). A caller's mistake
 * the schema cannot see (a foreign cursor, too many ids) is a `CatalogRequestError`; the
 * doors turn it into their own wire form.
 */
import {
  DEFAULT_PAGE_SIZE,
  type GetProductRequest,
  type LookupRequest,
  MAX_LOOKUP_IDS,
  MAX_PAGE_SIZE,
  type SearchRequest,
} from './catalog-schemas.js';
import type { LiveData } from './live-data.js';
import { decodeCursor, encodeCursor, queryFingerprint } from './page-cursor.js';
import { detailProduct } from './product-detail.js';
import type { SearchQuery } from './search-index.js';
import {
  LOOKUP_CAPABILITY,
  SEARCH_CAPABILITY,
  type UcpMessage,
  type UcpProduct,
  type UcpVariant,
  ucpEnvelope,
} from './ucp-types.js';
import { filterVariants } from './variant-filter.js';

export class CatalogRequestError extends Error {
  override readonly name = 'CatalogRequestError';
  constructor(
    readonly code: 'invalid_cursor' | 'request_too_large',
    message: string,
  ) {
    super(message);
  }
}

export async function searchCatalog(data: LiveData, request: SearchRequest) {
  const query: SearchQuery = {
    text: request.query,
    categories: request.filters?.categories,
    price: request.filters?.price,
    available: request.filters?.available,
  };
  const fingerprint = queryFingerprint(query, data.manifest.generated);
  const cursor = request.pagination?.cursor;
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, fingerprint);
  if (offset === undefined) {
    throw new CatalogRequestError(
      'invalid_cursor',
      'pagination.cursor was not issued for this query; start again without it',
    );
  }
  const limit = Math.min(request.pagination?.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const matches = await data.index.search(query);
  const ids = await data.index.productIds(matches.subarray(offset, offset + limit));
  const found = await data.readProducts(ids);
  const products = ids.flatMap((id) => found.get(id) ?? []);
  const next = offset + limit;
  const hasNext = next < matches.length;
  return {
    ucp: ucpEnvelope(SEARCH_CAPABILITY),
    products,
    pagination: {
      ...(hasNext ? { cursor: encodeCursor(next, fingerprint) } : {}),
      has_next_page: hasNext,
      total_count: matches.length,
    },
  };
}

interface Resolved {
  product: UcpProduct;
  /** The variant the id named, or undefined for a product id (its featured variant then). */
  variantId?: string;
}

async function resolveIds(data: LiveData, ids: readonly string[]): Promise<Map<string, Resolved>> {
  const resolved = new Map<string, Resolved>();
  const products = await data.readProducts(ids);
  for (const id of ids) {
    const product = products.get(id);
    if (product) {
      resolved.set(id, { product });
      continue;
    }
    const productId = await data.productOfVariant(id);
    const owner = productId === undefined ? undefined : (await data.readProducts([productId])).get(productId);
    if (owner) resolved.set(id, { product: owner, variantId: id });
  }
  return resolved;
}

export async function lookupCatalog(data: LiveData, request: LookupRequest) {
  const ids = [...new Set(request.ids)];
  if (ids.length > MAX_LOOKUP_IDS) {
    throw new CatalogRequestError(
      'request_too_large',
      `catalog.ids holds ${ids.length} ids; at most ${MAX_LOOKUP_IDS} per request`,
    );
  }
  const resolved = await resolveIds(data, ids);
  // One entry per product, each variant carrying the request ids that resolved to it (UCP
  // lookup: "Variants without an `inputs` entry MUST NOT appear").
  const byProduct = new Map<string, { product: UcpProduct; variants: Map<string, UcpVariant> }>();
  const messages: UcpMessage[] = [];
  for (const id of ids) {
    const hit = resolved.get(id);
    if (!hit) {
      messages.push({ type: 'info', code: 'not_found', content: id });
      continue;
    }
    // A product id names its first variant that passes the filters; a product none passes is left out.
    const passing = filterVariants(hit.product, request.filters);
    const variant = passing.find((candidate) => candidate.id === (hit.variantId ?? candidate.id));
    if (!variant) continue;
    const entry = byProduct.get(hit.product.id) ?? { product: hit.product, variants: new Map() };
    byProduct.set(hit.product.id, entry);
    const shown = entry.variants.get(variant.id) ?? { ...variant, inputs: [] };
    shown.inputs?.push({ id, match: hit.variantId === undefined ? 'featured' : 'exact' });
    entry.variants.set(variant.id, shown);
  }
  const products = [...byProduct.values()].map(({ product, variants }) => ({
    ...product,
    variants: [...variants.values()],
  }));
  return { ucp: ucpEnvelope(LOOKUP_CAPABILITY), products, ...(messages.length > 0 ? { messages } : {}) };
}

export async function getProduct(data: LiveData, request: GetProductRequest) {
  const hit = (await resolveIds(data, [request.id])).get(request.id);
  if (!hit) return notFound(`Product not found: ${request.id}`);
  const { variantId } = hit;
  const variants = filterVariants(hit.product, request.filters);
  if (
    variants.length === 0 ||
    (variantId !== undefined && !variants.some((variant) => variant.id === variantId))
  ) {
    return notFound(`No variant of ${hit.product.id} matches the filters`);
  }
  const product = { ...hit.product, variants };
  // UCP get_product: for a variant id "The requested variant MUST be the first element (featured)."
  const detail = detailProduct(product, {
    ...(variantId === undefined ? {} : { variantId }),
    ...(request.selected ? { selected: request.selected } : {}),
    ...(request.preferences ? { preferences: request.preferences } : {}),
  });
  return { ucp: ucpEnvelope(LOOKUP_CAPABILITY), product: detail };
}

/** UCP's error envelope for get_product: an application outcome, not a protocol error. */
function notFound(content: string) {
  return {
    ucp: ucpEnvelope(LOOKUP_CAPABILITY, 'error'),
    messages: [
      { type: 'error', code: 'not_found', content, severity: 'unrecoverable' },
    ] satisfies UcpMessage[],
  };
}
