/**
 * A document of per-product fragments as pieces: bytes of its own (a head, a separator, a
 * tail) and the document's elements (`ProductElements`, one per product, read by index),
 * with the bytes that go between two of them. `PieceSequence` reads such a document as one
 * sequence by index (each of its own byte pieces, each element, each separator), so the
 * writer and the cut into parts (parts/run-parts.ts) walk it without an object per product.
 */
import type { ProductElements } from './plan.js';

/** A document's elements in plan order, `between` written between two of them. */
export interface ElementsPiece {
  readonly elements: ProductElements;
  readonly between?: Buffer;
}

export type DocumentPiece = Buffer | ElementsPiece;

/** Where a piece's entries start in the sequence, and what it is. */
interface Span {
  readonly start: number;
  readonly piece: DocumentPiece;
}

/** How many entries of the sequence a piece is: n elements and n − 1 separators, or 1 for bytes. */
function entriesOf(piece: DocumentPiece): number {
  if (Buffer.isBuffer(piece)) return 1;
  const count = piece.elements.length;
  return piece.between === undefined || count === 0 ? count : 2 * count - 1;
}

export class PieceSequence {
  readonly length: number;
  /** True when a piece is a document's elements, even with none: it is a document of products. */
  readonly ofProducts: boolean;
  readonly #spans: Span[] = [];

  constructor(pieces: readonly DocumentPiece[]) {
    let start = 0;
    for (const piece of pieces) {
      this.#spans.push({ start, piece });
      start += entriesOf(piece);
    }
    this.length = start;
    this.ofProducts = pieces.some((piece) => !Buffer.isBuffer(piece));
  }

  /** The element at `index` (its elements and its index among them), or its own bytes. */
  #locate(index: number): { elements: ProductElements; at: number } | Buffer {
    if (!Number.isInteger(index) || index < 0 || index >= this.length)
      throw new TypeError(`PieceSequence: no entry ${index} of ${this.length}`);
    // A document has a handful of pieces: a scan from the end finds the one holding `index`.
    let span = this.#spans[this.#spans.length - 1];
    for (let at = this.#spans.length - 1; span !== undefined && span.start > index; at -= 1)
      span = this.#spans[at - 1];
    if (span === undefined) throw new TypeError(`PieceSequence: no piece holds entry ${index}`);
    const { piece, start } = span;
    if (Buffer.isBuffer(piece)) return piece;
    const offset = index - start;
    if (piece.between === undefined) return { elements: piece.elements, at: offset };
    // Elements at even offsets, the separator at odd ones.
    return offset % 2 === 0 ? { elements: piece.elements, at: offset / 2 } : piece.between;
  }

  isElement(index: number): boolean {
    return !Buffer.isBuffer(this.#locate(index));
  }

  /** The entry's bytes: an element's read (rendered, or copied from the cache) when it is one. */
  bytes(index: number): Buffer {
    const found = this.#locate(index);
    return Buffer.isBuffer(found) ? found : found.elements.read(found.at);
  }

  /** An element's slug; a TypeError for bytes of the document's own. */
  slug(index: number): string {
    const found = this.#locate(index);
    if (Buffer.isBuffer(found)) throw new TypeError(`PieceSequence: entry ${index} is not an element`);
    return found.elements.slug(found.at);
  }

  /** An element's key (undefined when nothing caches it); a TypeError for bytes of the document's own. */
  key(index: number): string | undefined {
    const found = this.#locate(index);
    if (Buffer.isBuffer(found)) throw new TypeError(`PieceSequence: entry ${index} is not an element`);
    return found.elements.key(found.at);
  }

  /** Every entry's bytes in order, one read at a time. */
  *chunks(from = 0, to = this.length): Generator<Buffer> {
    for (let index = from; index < to; index += 1) yield this.bytes(index);
  }

  /** The byte length when every piece is bytes of its own; undefined when one is elements. */
  ownByteLength(): number | undefined {
    let total = 0;
    for (const { piece } of this.#spans) {
      if (!Buffer.isBuffer(piece)) return undefined;
      total += piece.length;
    }
    return total;
  }
}
