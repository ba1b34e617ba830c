/** Reads unsigned LEB128 integers (seven bits a byte, low bits first) one after another from bytes. */
export class Leb128Reader {
  at: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    private readonly end = bytes.length,
  ) {
    this.at = start;
  }

  /** The next integer; a `TypeError` when the bytes end inside it. */
  next(): number {
    let value = 0;
    let shift = 1;
    let byte: number;
    do {
      if (this.at >= this.end) throw new TypeError('an integer is cut short');
      byte = this.bytes[this.at] as number;
      this.at += 1;
      value += (byte & 0x7f) * shift;
      shift *= 0x80;
    } while (byte >= 0x80);
    return value;
  }
}
