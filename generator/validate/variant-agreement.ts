/**
 * The per-variant agreement every product document owes the catalog: for each variant a
 * document lists, the same id, regular price, sale price, availability and link. Any
 * document reader (the Google feed, the knowledge base, and the OpenAI and ACP feeds)
 * turns its entries into `VariantRow`s in the feeds' common terms (`price` the regular
 * price, `salePrice` what the shopper pays when on sale, both as `12.00 USD`) and hands
 * them to `checkVariantAgreement`; the reference rows come from the catalog's records by
 * the same rules, so no reader compares prices its own way.
 */
import type { Availability } from '../model.js';
import { isRecord, stringField } from './bundle-layout.js';

/** One variant as a document states it. */
export interface VariantRow {
  variantId: string;
  /** The regular price, `<amount> <currency>`. */
  price: string;
  /** The price on sale, `<amount> <currency>`, when the document says it is on sale. */
  salePrice?: string;
  /** In the document's own vocabulary; `checkVariantAgreement` maps the catalog's to it. */
  availability: string;
  /** The page the document links for this variant, when it links one. */
  url?: string;
}

/** One catalog variant, with what the documents need to know of its product. */
export interface ReferenceVariant {
  slug: string;
  row: VariantRow & { availability: Availability; url: string };
  requiresShipping: boolean;
  /** The product's shipping sentence, when it has one. */
  shipping?: string;
}

/** Decimal text in one canonical form ("12.5" and "12.50" are the same price). */
export function canonicalPrice(price: string): string {
  const [whole = '', fraction = ''] = price.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed === '' ? whole : `${whole}.${trimmed}`;
}

/** `12.5 USD` and `12.50 USD` compare equal; anything else compares as text. */
function sameMoney(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const [aAmount = '', aCurrency = ''] = a.trim().split(' ');
  const [bAmount = '', bCurrency = ''] = b.trim().split(' ');
  return canonicalPrice(aAmount) === canonicalPrice(bAmount) && aCurrency === bCurrency;
}

/** A variant's offer in the feeds' terms: the "was" price is the regular one while on sale. */
export function offerRow(
  variantId: string,
  current: string,
  was: string | undefined,
  currency: string,
): Pick<VariantRow, 'variantId' | 'price' | 'salePrice'> {
  const money = (amount: string) => `${amount} ${currency}`;
  return was === undefined
    ? { variantId, price: money(current) }
    : { variantId, price: money(was), salePrice: money(current) };
}

/**
 * The catalog's variants by id, from the published records (read defensively: the schema
 * check reports malformed ones). A record without variants has none here.
 */
export function collectReferenceVariants(
  products: readonly unknown[],
  onDuplicate: (id: string) => void,
): Map<string, ReferenceVariant> {
  const byId = new Map<string, ReferenceVariant>();
  for (const record of products) {
    const slug = stringField(record, 'slug') ?? '';
    const url = stringField(record, 'url');
    const currency = stringField(record, 'currency') ?? '';
    const variants = isRecord(record) && Array.isArray(record.variants) ? record.variants : [];
    const shipping = stringField(record, 'shipping');
    for (const variant of variants) {
      const id = stringField(variant, 'id');
      const price = stringField(variant, 'price');
      if (id === undefined || price === undefined || url === undefined) continue;
      if (byId.has(id)) onDuplicate(id);
      const availability = (stringField(variant, 'availability') ?? 'in_stock') as Availability;
      byId.set(id, {
        slug,
        row: {
          ...offerRow(id, price, stringField(variant, 'compare_at_price'), currency),
          availability,
          url: stringField(variant, 'url') ?? url,
        },
        requiresShipping: !(isRecord(variant) && variant.requires_shipping === false),
        ...(shipping === undefined ? {} : { shipping }),
      });
    }
  }
  return byId;
}

export interface AgreementTarget {
  path: string;
  /** The catalog's availability in the document's vocabulary (the feeds map coming_soon). */
  availabilityOf?: (availability: Availability) => string;
  add: (path: string, message: string) => void;
}

/**
 * Compares each row with the catalog's variant of the same id, reporting every
 * difference; returns the reference variant of each row that has one (for checks a
 * document adds of its own, such as shipping), in row order.
 */
export function checkVariantAgreement(
  rows: Iterable<VariantRow>,
  reference: ReadonlyMap<string, ReferenceVariant>,
  target: AgreementTarget,
): (ReferenceVariant | undefined)[] {
  const { path, add } = target;
  const mapAvailability = target.availabilityOf ?? ((availability: Availability) => availability);
  const matched: (ReferenceVariant | undefined)[] = [];
  for (const row of rows) {
    const expected = reference.get(row.variantId);
    matched.push(expected);
    if (expected === undefined) {
      add(path, `variant ${row.variantId} is not in the catalog`);
      continue;
    }
    const subject = `${expected.slug} variant ${row.variantId}`;
    const want = expected.row;
    if (!sameMoney(row.price, want.price))
      add(path, `${subject}: price is ${row.price}, the catalog says ${want.price}`);
    if (!sameMoney(row.salePrice, want.salePrice)) {
      add(
        path,
        `${subject}: sale price is ${row.salePrice ?? 'none'}, the catalog says ${want.salePrice ?? 'none'}`,
      );
    }
    const availability = mapAvailability(want.availability);
    if (row.availability !== availability) {
      add(
        path,
        `${subject}: availability is ${row.availability}, the catalog's ${want.availability} means ${availability}`,
      );
    }
    if (row.url !== undefined && row.url !== want.url)
      add(path, `${subject}: link is ${row.url}, the catalog says ${want.url}`);
  }
  return matched;
}
