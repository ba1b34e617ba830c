/**
 * Finds where one JSON value ends in a stream of bytes, across chunks, without parsing it:
 * the streamed file reader (`json-items.ts`) cuts a catalog into its products this way and
 * hands each product's bytes to the native `JSON.parse`, which is several times faster than
 * any parser written in JavaScript. Only three things are tracked: the nesting depth,
 * whether the scan is inside a string, and whether the previous byte was a backslash. Inside
 * a string the scan jumps from quote to quote with `indexOf` (most of a product's bytes are
 * string contents), so the bytes between are never looked at one by one. Whether the value
 * is valid JSON is `JSON.parse`'s to say, once it is whole.
 *
 * UTF-8 makes byte scanning safe: `"`, `\`, brackets and commas are single bytes that never
 * occur inside a multi-byte character.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** JSON's four whitespace bytes (RFC 8259 section 2). */
export function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The bytes of one value, gathered across chunks until `scan` reports its end. */
export class ValueScan {
  /** Bytes of the value seen so far (never more than the bound plus one chunk). */
  size = 0;
  private readonly parts: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A number, `true`, `false` or `null` (or garbage): it ends at the next delimiter. */
  private readonly scalar: boolean;
  /** Cached `indexOf` answers for the current chunk; `length` means "none left". */
  private quoteAt = -1;
  private slashAt = -1;
  private chunk: Buffer | undefined;

  /** `first` is the value's first byte (not consumed yet: `scan` starts on it). */
  constructor(first: number) {
    this.scalar = first !== QUOTE && first !== OPEN_BRACE && first !== OPEN_BRACKET;
  }

  /**
   * Scans `chunk` from `from`. Returns the index just past the value when it ends in this
   * chunk (a scalar's delimiter is left for the caller), or -1 when the whole rest of the
   * chunk belongs to the value.
   */
  scan(chunk: Buffer, from: number): number {
    if (this.chunk !== chunk) {
      this.chunk = chunk;
      this.quoteAt = -1;
      this.slashAt = -1;
    }
    const end = this.scalar ? this.scanScalar(chunk, from) : this.scanNested(chunk, from);
    this.keep(chunk, from, end === -1 ? chunk.length : end);
    return end;
  }

  /** The value's text, once `scan` has found its end (or the stream ended on a scalar). */
  text(): string {
    const whole = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    return whole === undefined ? '' : whole.toString('utf8');
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    // A view while the value may end in this chunk; a copy is made only of a chunk's tail,
    // whose memory the stream may hand out again.
    this.parts.push(to === chunk.length ? Buffer.from(chunk.subarray(from, to)) : chunk.subarray(from, to));
    this.size += to - from;
  }

  private scanScalar(chunk: Buffer, from: number): number {
    for (let at = from; at < chunk.length; at++) {
      const byte = chunk[at] ?? 0;
      if (byte === COMMA || byte === CLOSE_BRACKET || byte === CLOSE_BRACE || isJsonSpace(byte)) return at;
    }
    return -1;
  }

  private scanNested(chunk: Buffer, from: number): number {
    let at = from;
    while (at < chunk.length) {
      if (this.inString) {
        at = this.skipString(chunk, at);
        if (at === -1) return -1;
        if (this.depth === 0) return at;
        continue;
      }
      const byte = chunk[at] ?? 0;
      at += 1;
      if (byte === QUOTE) this.inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth += 1;
      else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --this.depth === 0) return at;
    }
    return -1;
  }

  /** From inside a string: the index past its closing quote, or -1 when the chunk ends first. */
  private skipString(chunk: Buffer, from: number): number {
    let at = from;
    if (this.escaped) {
      if (at >= chunk.length) return -1;
      this.escaped = false;
      at += 1;
    }
    for (;;) {
      if (this.quoteAt < at) this.quoteAt = indexOrLength(chunk, QUOTE, at);
      if (this.slashAt < at) this.slashAt = indexOrLength(chunk, BACKSLASH, at);
      if (this.slashAt < this.quoteAt) {
        // `\"` and `\\`: the byte after a backslash never ends the string.
        at = this.slashAt + 2;
        if (at > chunk.length) {
          this.escaped = true;
          return -1;
        }
        continue;
      }
      if (this.quoteAt === chunk.length) return -1;
      this.inString = false;
      return this.quoteAt + 1;
    }
  }
}

function indexOrLength(chunk: Buffer, byte: number, from: number): number {
  const found = chunk.indexOf(byte, from);
  return found === -1 ? chunk.length : found;
}
