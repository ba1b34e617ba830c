/**
 * The postings of the live search index, gathered a product at a time in a bounded number
 * of bytes a posting (issue 29: at 1,000,000 products a list and an object a term, and 8
 * bytes a number, were over a gigabyte alone). Each term is a number, interned once in a
 * table of typed arrays (term-table.ts); each product goes to one byte stream as LEB128: its
 * fields' lengths in words, then its postings (term, fields carrying it, count per such
 * field), two to five bytes a posting. Once the last product is in, the fields'
 * average lengths are known: two passes over the stream score each posting (the highest
 * impact first, then each quantised against it, the first also sizing each term's run)
 * straight into its term's run of LEB128 gaps and of impact bytes, two arrays of exactly
 * their size that the partition files are cut from (no product number kept per posting).
 */

import { bytesToBase64 } from './base64-bytes.js';
import { ByteChunks } from './byte-chunks.js';
import { GrowableArray } from './growable-array.js';
import { putVarint, varintLength } from './leb128-writer.js';
import { FIELDS, fieldAverages, impactOf, inverseFrequency, quantiseImpact } from './search-impacts.js';
import { StringChunks, type StringList } from './string-chunks.js';
import { TermTable } from './term-table.js';

/** The postings as the partition files are cut from them: terms in order, each one's runs end to end. */
export interface BuiltPostings {
  /** The vocabulary, sorted by code unit (as chunks: no string a term). */
  terms: StringList;
  /** Per term, how many products carry it. */
  counts: Uint32Array;
  /** Per term, the byte length of its postings in `postings`. */
  lengths: Uint32Array;
  /** Per term, its product numbers ascending as unsigned LEB128 gaps. */
  postings: Uint8Array;
  /** One byte per posting, its quantised impact. */
  impacts: Uint8Array;
}

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

/** The field mask's bit above the fields': the term is once in each field that carries it. */
const ONCE_EACH = 1 << FIELDS;

export class PostingsBuilder {
  private readonly vocabulary = new TermTable();
  private readonly frequencies = new GrowableArray((length) => new Uint32Array(length));
  private readonly stream = new ByteChunks();
  /** Per field, its length in words summed over the products so far (each product's own are in the stream). */
  private readonly fieldTotals = new Float64Array(FIELDS);
  /** The current product's terms (to a slot) and, at 6 × slot + field, each one's count there. */
  private readonly rowSlots = new Map<string, number>();
  private rowTimes = new Uint32Array(64 * FIELDS);
  private products = 0;
  private finishPeak = 0;

  constructor(private readonly count: number) {}

  /** Adds the next product, given the tokens of each of its fields in order. */
  addProduct(fields: readonly (readonly string[])[]): void {
    if (this.products >= this.count) throw new TypeError(`PostingsBuilder: more than ${this.count} products`);
    this.rowSlots.clear();
    fields.forEach((tokens, field) => {
      this.stream.varint(tokens.length);
      this.fieldTotals[field] = (this.fieldTotals[field] as number) + tokens.length;
      for (const token of tokens) {
        const slot = this.rowSlots.get(token) ?? this.newSlot(token);
        this.rowTimes[slot * FIELDS + field] = (this.rowTimes[slot * FIELDS + field] as number) + 1;
      }
    });
    this.stream.varint(this.rowSlots.size);
    for (const [term, slot] of this.rowSlots) this.writePosting(this.termIdOf(term), slot);
    this.products += 1;
  }

  /** The postings as the partition files cut them, once every product is in. */
  finish(): BuiltPostings {
    if (this.products < this.count) {
      throw new TypeError(`PostingsBuilder: ${this.products} products of ${this.count}`);
    }
    const { vocabulary } = this;
    const frequencies = this.frequencies.take();
    const order = Uint32Array.from(frequencies, (_, id) => id).sort((a, b) => vocabulary.compare(a, b));
    const { postings, impacts, lengthOf } = this.groupByTerm(order, frequencies);
    return {
      terms: sortedTerms(vocabulary, order),
      counts: order.map((id) => frequencies[id] as number),
      lengths: order.map((id) => lengthOf[id] as number),
      postings,
      impacts,
    };
  }

  /** The bytes the builder holds now (spare room included): what a test bounds a product by. */
  get byteLength(): number {
    return (
      this.stream.length + this.frequencies.byteLength + this.rowTimes.byteLength + this.vocabulary.byteLength
    );
  }

  /** The most bytes `finish` held at once, besides its `byteLength`: what a test bounds a posting by. */
  get finishByteLength(): number {
    return this.finishPeak;
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
    const id = this.vocabulary.idOf(term);
    if (id === this.frequencies.length) this.frequencies.push(0);
    return id;
  }

  /**
   * One posting in the stream: its term, a bit per field that carries it, then those
   * fields' counts, unless the `ONCE_EACH` bit says each is 1 (most postings: a byte saved).
   */
  private writePosting(termId: number, slot: number): void {
    this.frequencies.add(termId, 1);
    let mask = ONCE_EACH;
    for (let field = 0; field < FIELDS; field += 1) {
      const times = this.rowTimes[slot * FIELDS + field] as number;
      if (times > 0) mask |= 1 << field;
      if (times > 1) mask &= ~ONCE_EACH;
    }
    this.stream.varint(termId);
    this.stream.varint(mask);
    if (mask & ONCE_EACH) return;
    for (let field = 0; field < FIELDS; field += 1) {
      const times = this.rowTimes[slot * FIELDS + field] as number;
      if (times > 0) this.stream.varint(times);
    }
  }

  /**
   * Each term's products (ascending, as LEB128 gaps) and quantised impacts, terms in
   * `order`, in two flat arrays of exactly their size. The stream is read twice, scoring
   * each posting both times, rather than keeping 8 bytes a posting of unquantised impacts
   * for the highest; the first read also sizes each term's gaps, so the second writes them
   * in place and no posting's product number is kept apart (4 bytes a posting).
   */
  private groupByTerm(order: Uint32Array, frequencies: Uint32Array): Grouped {
    const idf = Float64Array.from(frequencies, (frequency) => inverseFrequency(this.count, frequency));
    const averages = fieldAverages(this.fieldTotals, this.count);
    const previous = new Uint32Array(frequencies.length);
    const lengthOf = new Uint32Array(frequencies.length);
    let highest = 0;
    this.readPostings(idf, averages, (termId, product, impact) => {
      if (impact > highest) highest = impact;
      lengthOf[termId] = (lengthOf[termId] as number) + varintLength(product - (previous[termId] as number));
      previous[termId] = product;
    });
    // Where each term's run starts, in the bytes and in the impacts: 32 bits, as a typed
    // array's length is (one of 2^32 bytes or more cannot be made, so nothing wraps unseen).
    const byteAt = new Uint32Array(frequencies.length);
    const impactAt = new Uint32Array(frequencies.length);
    let bytes = 0;
    let total = 0;
    for (const id of order) {
      byteAt[id] = bytes;
      impactAt[id] = total;
      bytes += lengthOf[id] as number;
      total += frequencies[id] as number;
    }
    const postings = new Uint8Array(bytes);
    const impacts = new Uint8Array(total);
    this.finishPeak = [
      frequencies,
      order,
      idf,
      previous,
      lengthOf,
      byteAt,
      impactAt,
      postings,
      impacts,
    ].reduce((sum, array) => sum + array.byteLength, 0);
    previous.fill(0);
    this.readPostings(idf, averages, (termId, product, impact) => {
      byteAt[termId] = putVarint(postings, byteAt[termId] as number, product - (previous[termId] as number));
      previous[termId] = product;
      const at = impactAt[termId] as number;
      impacts[at] = quantiseImpact(impact, highest);
      impactAt[termId] = at + 1;
    });
    return { postings, impacts, lengthOf };
  }

  /** Every posting in product order, with its unquantised impact. */
  private readPostings(
    idf: Float64Array,
    averages: readonly number[],
    visit: (termId: number, product: number, impact: number) => void,
  ): void {
    const reader = this.stream.reader();
    const times = new Uint32Array(FIELDS);
    const lengths = new Uint32Array(FIELDS);
    for (let product = 0; product < this.count; product += 1) {
      for (let field = 0; field < FIELDS; field += 1) lengths[field] = reader.varint();
      const postings = reader.varint();
      for (let posting = 0; posting < postings; posting += 1) {
        const termId = reader.varint();
        const mask = reader.varint();
        for (let field = 0; field < FIELDS; field += 1) {
          const carries = (mask & (1 << field)) !== 0;
          times[field] = !carries ? 0 : mask & ONCE_EACH ? 1 : reader.varint();
        }
        visit(termId, product, impactOf(idf[termId] as number, times, lengths, averages));
      }
    }
  }
}

/** The grouped postings and impacts, terms in order, and each term's byte length by its number. */
interface Grouped {
  postings: Uint8Array;
  impacts: Uint8Array;
  lengthOf: Uint32Array;
}

function sortedTerms(vocabulary: TermTable, order: Uint32Array): StringChunks {
  const terms = new StringChunks(order.length);
  for (const id of order) terms.push(vocabulary.termAt(id));
  return terms;
}

/** The postings as the whole index file writes them: gaps and impacts in base64. */
export function packedPostingsOf(built: BuiltPostings): PackedPostings {
  return {
    terms: Array.from({ length: built.terms.length }, (_, term) => built.terms.at(term) as string),
    counts: Array.from(built.counts),
    lengths: Array.from(built.lengths),
    postings: bytesToBase64(built.postings),
    impacts: bytesToBase64(built.impacts),
  };
}
