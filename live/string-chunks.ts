/**
 * A list of strings appended one at a time and kept as a few long strings, 1,024 items
 * each, with where each item ends: the search index builder's product ids (issue 29: a
 * million ids as a million strings cost about 24 bytes each beyond their characters; here
 * they cost 4). An item is sliced out of its chunk when read.
 */
import { GrowableArray } from './growable-array.js';

/** A list read by position, as an array is. */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

const CHUNK_ITEMS = 1024;

export class StringChunks implements StringList {
  private readonly chunks: string[] = [];
  /** The items of the chunk not yet joined. */
  private pending: string[] = [];
  /** Per item, where it ends in its chunk. */
  private readonly ends: GrowableArray<Uint32Array>;
  private pendingLength = 0;

  /** `capacity`: how many items there will be, when known. */
  constructor(capacity?: number) {
    this.ends = new GrowableArray((length) => new Uint32Array(length), capacity);
  }

  get length(): number {
    return this.ends.length;
  }

  /** About what the list holds: one byte a character (Latin-1 text) and each item's end. */
  get byteLength(): number {
    let characters = this.pendingLength;
    for (const chunk of this.chunks) characters += chunk.length;
    return characters + this.ends.byteLength;
  }

  push(item: string): void {
    this.pendingLength += item.length;
    this.ends.push(this.pendingLength);
    this.pending.push(item);
    if (this.pending.length === CHUNK_ITEMS) {
      this.chunks.push(this.pending.join(''));
      this.pending = [];
      this.pendingLength = 0;
    }
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const chunk = Math.floor(index / CHUNK_ITEMS);
    if (chunk === this.chunks.length) return this.pending[index % CHUNK_ITEMS];
    const start = index % CHUNK_ITEMS === 0 ? 0 : this.ends.at(index - 1);
    return this.chunks[chunk]?.slice(start, this.ends.at(index));
  }
}
