/** A growable byte buffer with LEB128, and bytes or base64 out, that needs no Node API (the search index's writers). */
import { bytesToBase64 } from './base64-bytes.js';

export class ByteWriter {
  private bytes = new Uint8Array(1024);
  length = 0;

  byte(value: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length] = value;
    this.length += 1;
  }

  /** An unsigned integer as LEB128: seven bits a byte, low bits first. */
  varint(value: number): void {
    writeVarint(value, (byte) => this.byte(byte));
  }

  /** The bytes written so far (a view: writing more may replace them). */
  written(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  base64(): string {
    return bytesToBase64(this.bytes.subarray(0, this.length));
  }
}

/** An unsigned integer below 2^53 as LEB128, each byte given to `put` in turn (low bits first). */
export function writeVarint(value: number, put: (byte: number) => void): void {
  let rest = value;
  while (rest >= 0x80) {
    put((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  put(rest);
}
