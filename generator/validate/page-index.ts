/**
 * The catalog's product pages as digests, for the Markdown pages' check at any size: per
 * product, 8 bytes of its page name's SHA-256 and its 4-byte place (sorted by digest, for a
 * page to find its products), 8 bytes of its page name and front matter facts together,
 * and two bytes of flags: 22 bytes, where every product's facts, a map of the page names
 * and a set of the pages met cost about 680 (BENCHMARKS.md, "feed.xml walked and the
 * Markdown pages' check on digests"). A page matches its product only when both digests
 * agree (its name, then its name with its facts), so a stranger sharing the name's digest
 * is told apart by the second; only two independent 64-bit collisions at once could pass
 * a wrong page. Everything else (a page missing, a page that differs, a page whose name's
 * digest only named products it differs from) is a candidate only, which the check
 * confirms against the real strings, read again, before it says anything.
 */
import { DigestColumn, digestOf, NumberColumn, SortedDigests } from './digests.js';

/** One catalog product as its page is checked: the page's file and the facts it must state (undefined: not checked). */
export interface CatalogPage {
  page: string;
  fields: readonly (string | undefined)[];
}

/** A page was met under this product's name digest. */
const HIT = 1;
/** A page met under this product's name digest did not state its facts (or had no front matter). */
const DIFFERED = 2;

/** The digest of a page's name and of the facts the product states (`checked`: a bit per field). */
function factsDigest(page: string, fields: readonly unknown[], checked: number): bigint {
  const stated = fields.filter((_, at) => (checked & (1 << at)) !== 0);
  // A value that is not a string (a YAML number or date) never equals the catalog's string.
  return digestOf(
    JSON.stringify([page, ...stated.map((value) => (typeof value === 'string' ? value : null))]),
  );
}

export class PageIndex {
  readonly #byName: SortedDigests;
  readonly #facts: BigUint64Array;
  readonly #checked: Uint8Array;
  readonly #states: Uint8Array;

  constructor(byName: SortedDigests, facts: BigUint64Array, checked: Uint8Array) {
    this.#byName = byName;
    this.#facts = facts;
    this.#checked = checked;
    this.#states = new Uint8Array(facts.length);
  }

  /** Notes a page met; false when no product's page name has its digest (so none has its name). */
  mark(page: string, read: () => readonly unknown[] | undefined): boolean {
    const { digests, owners } = this.#byName;
    const digest = digestOf(page);
    let at = this.#byName.find(digest);
    if (at < 0) return false;
    const fields = read();
    for (; digests[at] === digest; at += 1) {
      const product = owners[at] ?? 0;
      const same =
        fields !== undefined &&
        factsDigest(page, fields, this.#checked[product] ?? 0) === this.#facts[product];
      this.#states[product] = (this.#states[product] ?? 0) | HIT | (same ? 0 : DIFFERED);
    }
    return true;
  }

  /** The product at this catalog place had its page, stating its facts, each time it was met. */
  isMatched(product: number): boolean {
    return this.#states[product] === HIT;
  }

  allMatched(): boolean {
    return this.#states.every((state) => state === HIT);
  }

  /** Every product under this page's name digest had a page that differed: the page may be none of theirs. */
  hitsOnlyUnmatched(page: string): boolean {
    const { digests, owners } = this.#byName;
    const digest = digestOf(page);
    let at = this.#byName.find(digest);
    if (at < 0) return false;
    for (; digests[at] === digest; at += 1) if (this.isMatched(owners[at] ?? 0)) return false;
    return true;
  }

  /** The bytes kept per product. */
  get byteLength(): number {
    const { digests, owners } = this.#byName;
    return (
      digests.byteLength +
      owners.byteLength +
      this.#facts.byteLength +
      this.#checked.byteLength +
      this.#states.byteLength
    );
  }
}

/** The index of the catalog's pages, read product by product in the catalog's order. */
export function indexCatalogPages<T>(
  products: Iterable<T>,
  describe: (product: T) => CatalogPage,
): PageIndex {
  const names = new DigestColumn();
  const facts = new DigestColumn();
  const checked = new NumberColumn();
  for (const product of products) {
    const { page, fields } = describe(product);
    const mask = fields.reduce<number>(
      (bits, value, at) => (value === undefined ? bits : bits | (1 << at)),
      0,
    );
    names.push(digestOf(page));
    facts.push(factsDigest(page, fields, mask));
    checked.push(mask);
  }
  const digests = names.finish();
  return new PageIndex(
    new SortedDigests(digests, Uint32Array.from(digests.keys())),
    facts.finish(),
    Uint8Array.from(checked.finish()),
  );
}

/**
 * Marks each page met (`read`: its front matter's facts, in the catalog's field order, or
 * undefined when it has none that reads); says how many pages there were, and the pages no
 * product's name digest names, once each, with their place among the pages.
 */
export function markPages(
  index: PageIndex,
  pages: Iterable<readonly [page: string, body: string]>,
  read: (body: string) => readonly unknown[] | undefined,
): { pages: number; strays: [ordinal: number, page: string][] } {
  const strays: [number, string][] = [];
  const said = new Set<string>();
  let ordinal = 0;
  for (const [page, body] of pages) {
    if (!index.mark(page, () => read(body)) && !said.has(page)) {
      said.add(page);
      strays.push([ordinal, page]);
    }
    ordinal += 1;
  }
  return { pages: ordinal, strays };
}
