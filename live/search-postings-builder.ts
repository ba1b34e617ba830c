/**
 * The postings of the live search index, gathered a product at a time in a bounded number
 * of bytes a posting (issue 29: at 1,000,000 products a list and an object a term, and 8
 * bytes a number, were over a gigabyte alone). Each term is a number, interned once; each
 * product's postings go to one byte stream as LEB128 (term, fields carrying it, count per
 * such field), two to five bytes a posting. Once the last product is in, the fields'
 * average lengths are known: two passes over the stream score each posting (the highest
 * impact first, then each quantised against it) straight into its term's run of two flat
 * typed arrays, products ascending, and those are packed as the index file stores them.
 */

import { bytesToBase64 } from './base64-bytes.js';
import { ByteChunks } from './byte-chunks.js';
import { ByteWriter } from './byte-writer.js';
import { GrowableArray } from './growable-array.js';
import { FIELDS, fieldAverages, impactOf, inverseFrequency, quantiseImpact } from './search-impacts.js';

/** What the index file stores of the postings (search-index-file.ts). */
export interface PackedPostings {
  /** The vocabulary, sorted by code unit. */
  terms: string[];
  /** Per term, how many products carry it. */
  counts: number[];
  /** Per term, the byte length of its postings in `postings`. */
  lengths: number[];
  /** Base64: per term, its product numbers ascending as unsigned LEB128 gaps. */
  postings: string;
  /** Base64: one byte per posting, its quantised impact. */
  impacts: string;
}

/** Terms this long or longer may be views into their whole field's text (V8 slices strings of 13 units or more). */
const SLICED_LENGTH = 13;

export class PostingsBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly frequencies = new GrowableArray((length) => new Uint32Array(length));
  private readonly stream = new ByteChunks();
  /** Per field of each product, its length in words. */
  private readonly fieldLengths: Uint32Array;
  /** The current product's terms (to a slot) and, at 6 × slot + field, each one's count there. */
  private readonly rowSlots = new Map<string, number>();
  private rowTimes = new Uint32Array(64 * FIELDS);
  private products = 0;

  constructor(private readonly count: number) {
    this.fieldLengths = new Uint32Array(count * FIELDS);
  }

  /** Adds the next product, given the tokens of each of its fields in order. */
  addProduct(fields: readonly (readonly string[])[]): void {
    if (this.products >= this.count) throw new TypeError(`PostingsBuilder: more than ${this.count} products`);
    this.rowSlots.clear();
    fields.forEach((tokens, field) => {
      this.fieldLengths[this.products * FIELDS + field] = tokens.length;
      for (const token of tokens) {
        const slot = this.rowSlots.get(token) ?? this.newSlot(token);
        this.rowTimes[slot * FIELDS + field] = (this.rowTimes[slot * FIELDS + field] as number) + 1;
      }
    });
    this.stream.varint(this.rowSlots.size);
    for (const [term, slot] of this.rowSlots) this.writePosting(this.termIdOf(term), slot);
    this.products += 1;
  }

  /** The packed postings, once every product is in. */
  finish(): PackedPostings {
    if (this.products < this.count) {
      throw new TypeError(`PostingsBuilder: ${this.products} products of ${this.count}`);
    }
    const byId = [...this.termIds.keys()];
    this.termIds.clear();
    const frequencies = this.frequencies.trimmed();
    const order = Uint32Array.from(byId, (_, id) => id).sort((a, b) => {
      const left = byId[a] as string;
      const right = byId[b] as string;
      return left < right ? -1 : left > right ? 1 : 0;
    });
    const grouped = this.groupByTerm(order, frequencies);
    const terms = Array.from(order, (id) => byId[id] as string);
    return { terms, counts: Array.from(order, (id) => frequencies[id] as number), ...packGrouped(grouped) };
  }

  private newSlot(token: string): number {
    const slot = this.rowSlots.size;
    if ((slot + 1) * FIELDS > this.rowTimes.length) {
      const grown = new Uint32Array(this.rowTimes.length * 2);
      grown.set(this.rowTimes);
      this.rowTimes = grown;
    }
    this.rowTimes.fill(0, slot * FIELDS, (slot + 1) * FIELDS);
    this.rowSlots.set(token, slot);
    return slot;
  }

  private termIdOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      // A copy of its own, so the vocabulary does not keep a product's whole text alive.
      this.termIds.set(
        term.length >= SLICED_LENGTH ? (JSON.parse(JSON.stringify(term)) as string) : term,
        id,
      );
      this.frequencies.push(0);
    }
    return id;
  }

  /** One posting in the stream: its term, a bit per field that carries it, then those fields' counts. */
  private writePosting(termId: number, slot: number): void {
    this.frequencies.add(termId, 1);
    let mask = 0;
    for (let field = 0; field < FIELDS; field += 1) {
      if ((this.rowTimes[slot * FIELDS + field] as number) > 0) mask |= 1 << field;
    }
    this.stream.varint(termId);
    this.stream.varint(mask);
    for (let field = 0; field < FIELDS; field += 1) {
      const times = this.rowTimes[slot * FIELDS + field] as number;
      if (times > 0) this.stream.varint(times);
    }
  }

  /**
   * Each term's products (ascending) and quantised impacts, terms in `order`, in two flat
   * arrays. The stream is read twice, scoring each posting both times, rather than keeping
   * 8 bytes a posting of unquantised impacts for the highest.
   */
  private groupByTerm(order: Uint32Array, frequencies: Uint32Array): Grouped {
    const starts = new Float64Array(order.length + 1);
    const cursor = new Float64Array(frequencies.length);
    order.forEach((id, rank) => {
      cursor[id] = starts[rank] as number;
      starts[rank + 1] = (starts[rank] as number) + (frequencies[id] as number);
    });
    const total = starts[order.length] as number;
    const idf = Float64Array.from(frequencies, (frequency) => inverseFrequency(this.count, frequency));
    const averages = fieldAverages(this.fieldLengths, this.count);
    let highest = 0;
    this.readPostings(idf, averages, (_, _product, impact) => {
      if (impact > highest) highest = impact;
    });
    const products = new Uint32Array(total);
    const impacts = new Uint8Array(total);
    this.readPostings(idf, averages, (termId, product, impact) => {
      const at = cursor[termId] as number;
      products[at] = product;
      impacts[at] = quantiseImpact(impact, highest);
      cursor[termId] = at + 1;
    });
    return { starts, products, impacts };
  }

  /** Every posting in product order, with its unquantised impact. */
  private readPostings(
    idf: Float64Array,
    averages: readonly number[],
    visit: (termId: number, product: number, impact: number) => void,
  ): void {
    const reader = this.stream.reader();
    const times = new Uint32Array(FIELDS);
    for (let product = 0; product < this.count; product += 1) {
      const postings = reader.varint();
      for (let posting = 0; posting < postings; posting += 1) {
        const termId = reader.varint();
        const mask = reader.varint();
        for (let field = 0; field < FIELDS; field += 1)
          times[field] = mask & (1 << field) ? reader.varint() : 0;
        visit(
          termId,
          product,
          impactOf(idf[termId] as number, times, this.fieldLengths, product * FIELDS, averages),
        );
      }
    }
  }
}

/** Per term in order, where its run starts in `products` and `impacts` (and, last, their length). */
interface Grouped {
  starts: Float64Array;
  products: Uint32Array;
  impacts: Uint8Array;
}

/** The grouped postings as LEB128 gaps per term, and the impacts as they are. */
function packGrouped({
  starts,
  products,
  impacts,
}: Grouped): Pick<PackedPostings, 'lengths' | 'postings' | 'impacts'> {
  const bytes = new ByteWriter();
  const lengths: number[] = [];
  for (let term = 0; term + 1 < starts.length; term += 1) {
    const start = bytes.length;
    let previous = 0;
    for (let at = starts[term] as number; at < (starts[term + 1] as number); at += 1) {
      const product = products[at] as number;
      bytes.varint(product - previous);
      previous = product;
    }
    lengths.push(bytes.length - start);
  }
  return { lengths, postings: bytes.base64(), impacts: bytesToBase64(impacts) };
}
