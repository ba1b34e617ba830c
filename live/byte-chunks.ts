/**
 * An append-only stream of unsigned LEB128 integers kept in fixed 64 KiB chunks, read back
 * in the order written: the search index's builder keeps each product's postings this way,
 * two to five bytes a posting, where growing one array by doubling would copy it at
 * every step and keep up to as much again spare.
 */

import { writeVarint } from './byte-writer.js';

const CHUNK_BYTES = 64 * 1024;

export class ByteChunks {
  private readonly chunks: Uint8Array[] = [];
  private current = new Uint8Array(0);
  private used = 0;

  /** An unsigned integer below 2^53 as LEB128: seven bits a byte, low bits first. */
  varint(value: number): void {
    writeVarint(value, this.put);
  }

  /** How many bytes were written. */
  get length(): number {
    return this.chunks.length === 0 ? 0 : (this.chunks.length - 1) * CHUNK_BYTES + this.used;
  }

  /** A reader from the first byte; each call of the result's `varint` reads the next integer. */
  reader(): { varint(): number } {
    const chunks = this.chunks;
    let left = this.length;
    let chunk = 0;
    let at = 0;
    const byte = (): number => {
      if (left === 0) throw new RangeError('ByteChunks: read past the end');
      left -= 1;
      if (at === CHUNK_BYTES) {
        chunk += 1;
        at = 0;
      }
      const value = (chunks[chunk] as Uint8Array)[at] as number;
      at += 1;
      return value;
    };
    return {
      varint() {
        let value = 0;
        let place = 1;
        for (;;) {
          const next = byte();
          value += (next & 0x7f) * place;
          if (next < 0x80) return value;
          place *= 0x80;
        }
      },
    };
  }

  /** One byte on the end (an arrow, so `varint` hands it on without binding it per call). */
  private readonly put = (value: number): void => {
    if (this.used === this.current.length) {
      this.current = new Uint8Array(CHUNK_BYTES);
      this.chunks.push(this.current);
      this.used = 0;
    }
    this.current[this.used] = value;
    this.used += 1;
  };
}
