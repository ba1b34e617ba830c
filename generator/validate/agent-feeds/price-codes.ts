/**
 * Prices as the feeds are compared on them, as exact numbers in four bytes: a decimal
 * price's canonical text (`canonicalPrice`: "12.50" and "12.5" are one value) as thousandths
 * when it is a plain amount under a million with at most three decimals, which every price a
 * shop states is; any other text (a leading zero, an exponent, a larger amount) keeps its
 * canonical text beside the column, so two prices are equal exactly when their canonical
 * texts are, as when the gate compared the texts themselves.
 */
import { canonicalPrice } from '../../../record/decimal-price.js';
import { NumberColumn } from '../digests.js';

/** No price: a variant that is not on sale has no sale price. */
const NONE = 0xffff_ffff;
/** A price whose canonical text is kept beside the column. */
const OTHER = 0xffff_fffe;
const PLAIN = /^(0|[1-9]\d{0,5})(?:\.(\d{0,2}[1-9]))?$/;

/** The code of a price text (undefined for none), and its canonical text when the code is OTHER. */
function codeOf(price: string | undefined): [code: number, other?: string] {
  if (price === undefined) return [NONE];
  const canonical = canonicalPrice(price);
  const plain = PLAIN.exec(canonical);
  if (plain === null) return [OTHER, canonical];
  return [Number(plain[1]) * 1000 + Number((plain[2] ?? '').padEnd(3, '0'))];
}

/** One price per offer, by the offer's number, growing as the catalog is read. */
export class PriceColumnBuilder {
  readonly #codes = new NumberColumn();
  readonly #others = new Map<number, string>();

  /** A malformed record's price that is no text (the schema check reports it) equals no row's. */
  push(price: unknown): void {
    const [code, other] =
      price === undefined || typeof price === 'string' ? codeOf(price) : [OTHER, `\u0000${String(price)}`];
    if (other !== undefined) this.#others.set(this.#codes.length, other);
    this.#codes.push(code);
  }

  finish(): PriceColumn {
    return new PriceColumn(this.#codes.finish(), this.#others);
  }
}

export class PriceColumn {
  constructor(
    readonly codes: Uint32Array,
    private readonly others: Map<number, string>,
  ) {}

  /** Whether the offer's price has the value of `price` (undefined: none). */
  same(offer: number, price: string | undefined): boolean {
    const [code, other] = codeOf(price);
    return code === this.codes[offer] && (other === undefined || other === this.others.get(offer));
  }

  /** The price of offer `from` given to offer `to` (a variant id the catalog repeats takes its last offer). */
  copy(from: number, to: number): void {
    this.codes[to] = this.codes[from] ?? NONE;
    const other = this.others.get(from);
    if (other === undefined) this.others.delete(to);
    else this.others.set(to, other);
  }
}
