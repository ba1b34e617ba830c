/**
 * The gate's reading of the ACP feed: `metadata.json` is a FeedMetadata and each line of
 * `products.jsonl` a Product of the release's JSON Schema; product and variant ids are
 * unique; every catalog product is in the snapshot (a full snapshot replaces the feed, so
 * one left out would be deleted at the agent); every variant's `availability.status` is
 * one of the values ACP knows, and a sold-out or discontinued one is not `available`; and
 * every variant agrees with the catalog on link, price and list price (minor units turned
 * back into decimals) and availability.
 */
import { formatMinorUnits, minorDigitsFor } from '../../../record/decimal-price.js';
import type { Availability } from '../../../record/product-record.js';
import {
  ACP_AVAILABILITY,
  ACP_METADATA_FILE,
  ACP_PRODUCTS_FILE,
  ACP_STATUSES,
} from '../../emit/agent-feeds/acp-feed.js';
import { isRecord, readJson } from '../bundle-layout.js';
import type { BundleFiles } from '../problem.js';
import { documentLines } from '../text-lines.js';
import { acpValidators, describeSchemaErrors } from './acp-schema.js';
import type { CatalogOffers } from './catalog-offers.js';
import type { FeedOfferRow } from './feed-offer-row.js';
import { checkOfferAgrees, type Report } from './offer-agreement.js';

const MAX_LINE_FAULTS = 20;

const STATUS_TABLE = Object.fromEntries(
  Object.entries(ACP_AVAILABILITY).map(([state, value]) => [state, value.status]),
) as Record<Availability, string>;

function decimalOf(price: unknown): { amount: string; currency: string } | undefined {
  if (!isRecord(price) || typeof price.amount !== 'number' || typeof price.currency !== 'string')
    return undefined;
  const digits = minorDigitsFor(price.currency);
  const amount = formatMinorUnits(String(price.amount), digits, digits);
  return amount === undefined ? undefined : { amount, currency: price.currency };
}

function offerRowOf(variant: Record<string, unknown>): FeedOfferRow {
  const price = decimalOf(variant.price);
  const list = decimalOf(variant.list_price);
  const availability = isRecord(variant.availability) ? variant.availability : {};
  return {
    variantId: String(variant.id),
    url: typeof variant.url === 'string' ? variant.url : '',
    price: list?.amount ?? price?.amount ?? '',
    ...(list !== undefined && price !== undefined ? { salePrice: price.amount } : {}),
    currency: price?.currency ?? '',
    availability: typeof availability.status === 'string' ? availability.status : '',
  };
}

export function checkAcpFeed(files: BundleFiles, catalog: CatalogOffers | undefined, report: Report): void {
  const hasProducts = files.has(ACP_PRODUCTS_FILE);
  const hasMetadata = files.has(ACP_METADATA_FILE);
  if (!hasProducts && !hasMetadata) return;
  const validators = acpValidators();
  if (!validators.metadata(readJson(files, ACP_METADATA_FILE))) {
    report(ACP_METADATA_FILE, `not a FeedMetadata: ${describeSchemaErrors(validators.metadata.errors)}`);
  }
  if (!hasProducts) {
    report(ACP_PRODUCTS_FILE, 'missing beside metadata.json');
    return;
  }
  let faults = 0;
  const limited: Report = (path, message) => {
    faults += 1;
    if (faults <= MAX_LINE_FAULTS) report(path, message);
  };
  const productIds = new Set<string>();
  const variantIds = new Set<string>();
  /** The catalog's products the snapshot lists, by place. */
  const listed = new Uint8Array(catalog?.places ?? 0);
  // Line by line, and part by part when parted: at 100,000 products the snapshot is 180 MB,
  // which joined and decoded whole was the largest thing the gate held.
  for (const [line, number] of documentLines(files, ACP_PRODUCTS_FILE)) {
    if (line === '') continue;
    let product: unknown;
    try {
      product = JSON.parse(line);
    } catch {
      limited(ACP_PRODUCTS_FILE, `line ${number} is not valid JSON`);
      continue;
    }
    if (!validators.product(product) || !isRecord(product) || !Array.isArray(product.variants)) {
      limited(
        ACP_PRODUCTS_FILE,
        `line ${number} is not a Product: ${describeSchemaErrors(validators.product.errors)}`,
      );
      continue;
    }
    const id = String(product.id);
    if (productIds.has(id)) limited(ACP_PRODUCTS_FILE, `product ${id} appears twice`);
    productIds.add(id);
    const place = catalog?.findProduct(id) ?? -1;
    if (place !== -1) listed[place] = 1;
    for (const variant of product.variants) {
      if (!isRecord(variant)) continue;
      const row = offerRowOf(variant);
      if (variantIds.has(row.variantId)) limited(ACP_PRODUCTS_FILE, `variant ${row.variantId} appears twice`);
      variantIds.add(row.variantId);
      const fault = checkStatus(variant.availability);
      if (fault !== undefined) limited(ACP_PRODUCTS_FILE, `variant ${row.variantId}: ${fault}`);
      if (catalog !== undefined) checkOfferAgrees(row, catalog, STATUS_TABLE, ACP_PRODUCTS_FILE, limited);
    }
  }
  for (const place of catalog?.unseenProducts(listed) ?? [])
    limited(ACP_PRODUCTS_FILE, {
      place,
      say: ({ id }) => `catalog product ${id} is missing from the snapshot`,
    });
  if (faults > MAX_LINE_FAULTS)
    report(ACP_PRODUCTS_FILE, `${faults - MAX_LINE_FAULTS} more faults not listed`);
}

const KNOWN_STATUSES: ReadonlySet<string> = new Set(ACP_STATUSES);
const NEVER_AVAILABLE: ReadonlySet<string> = new Set(['out_of_stock', 'discontinued']);

/** What is wrong with a variant's availability, in ACP's own terms; undefined when nothing is. */
function checkStatus(availability: unknown): string | undefined {
  if (!isRecord(availability) || typeof availability.status !== 'string') return undefined;
  const { status, available } = availability;
  if (!KNOWN_STATUSES.has(status)) return `availability.status "${status}" is not one ACP knows`;
  if (available === true && NEVER_AVAILABLE.has(status)) return `availability is ${status} but available`;
  return undefined;
}
