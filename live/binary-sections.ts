/**
 * A search index file of typed sections (format 6: term, price, facet and span files),
 * written and read in the same order: 32-bit unsigned integers and 64-bit floats,
 * little-endian whatever the platform's order, then runs of bytes. The handler reads the
 * file's bytes as the host hands them over and takes views of them: no JSON, no base64
 * (parsing and decoding those was a third of a search's CPU at 1,000,000 products). Each
 * section is read with its length known beforehand, and the whole file must be used up:
 * a file cut short or with bytes to spare is a `TypeError` naming what was being read.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Builds a file's bytes section by section. */
export class SectionWriter {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  uint32s(values: ArrayLike<number>): this {
    const bytes = new Uint8Array(values.length * 4);
    const view = new DataView(bytes.buffer);
    for (let at = 0; at < values.length; at += 1) {
      const value = values[at] as number;
      if (!(Number.isInteger(value) && value >= 0 && value <= 0xffffffff)) {
        throw new TypeError(`search index: ${value} is not a 32-bit unsigned integer`);
      }
      view.setUint32(at * 4, value, true);
    }
    return this.bytes(bytes);
  }

  float64s(values: ArrayLike<number>): this {
    const bytes = new Uint8Array(values.length * 8);
    const view = new DataView(bytes.buffer);
    for (let at = 0; at < values.length; at += 1) view.setFloat64(at * 8, values[at] as number, true);
    return this.bytes(bytes);
  }

  bytes(bytes: Uint8Array): this {
    this.parts.push(bytes);
    this.length += bytes.length;
    return this;
  }

  /** The file: every section end to end. */
  finish(): Uint8Array {
    const file = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      file.set(part, at);
      at += part.length;
    }
    return file;
  }
}

/** Reads a file's sections in the order they were written. */
export class SectionReader {
  private at = 0;

  constructor(private readonly file: Uint8Array) {}

  /** `count` 32-bit unsigned integers: a view of the file where it is aligned, a copy elsewhere. */
  uint32s(count: number, what: string): Uint32Array {
    const bytes = this.take(count * 4, what);
    if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
      return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    return Uint32Array.from({ length: count }, (_, at) => view.getUint32(at * 4, true));
  }

  /** `count` 64-bit floats: a view of the file where it is aligned, a copy elsewhere. */
  float64s(count: number, what: string): Float64Array {
    const bytes = this.take(count * 8, what);
    if (LITTLE_ENDIAN && bytes.byteOffset % 8 === 0)
      return new Float64Array(bytes.buffer, bytes.byteOffset, count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    return Float64Array.from({ length: count }, (_, at) => view.getFloat64(at * 8, true));
  }

  /** The next `length` bytes, as a view of the file. */
  take(length: number, what: string): Uint8Array {
    if (!(Number.isSafeInteger(length) && length >= 0) || this.at + length > this.file.length) {
      throw new TypeError(`the file ends inside its ${what}`);
    }
    const bytes = this.file.subarray(this.at, this.at + length);
    this.at += length;
    return bytes;
  }

  /** Every byte left. */
  rest(): Uint8Array {
    return this.take(this.file.length - this.at, 'last section');
  }

  /** Checks that every byte was read. */
  end(): void {
    if (this.at !== this.file.length) {
      throw new TypeError(`${this.file.length - this.at} bytes past the file's last section`);
    }
  }
}
