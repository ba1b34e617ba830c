/**
 * Reads a catalog document of any size item by item: `{"products": [...], ...}` or a bare
 * array `[...]`, as a stream of byte chunks. The root's grammar (braces, member names,
 * colons, commas) is checked here byte by byte; each product, and each other member of the
 * root (a native catalog's `merchant`, say), is cut out whole by `ValueScan` and parsed by
 * `JSON.parse`. So memory holds one product at a time, never the document, and one product
 * larger than `maxItemBytes` is refused instead of read. Every error names the source and
 * the byte offset (and the item's index) where the document went wrong.
 */
import { CatalogError } from '../errors.js';
import { describeNotJsonFix, describeSizeFix } from './advice.js';
import { isJsonSpace, ValueScan } from './json-value-scan.js';

export type JsonItemEvent =
  /** The root's kind, before anything else. */
  | { kind: 'root'; root: 'object' | 'array' }
  /** The root object's list starts (it is an array, perhaps an empty one). */
  | { kind: 'list' }
  /** A member of the root object other than the list, parsed whole. */
  | { kind: 'member'; key: string; value: unknown }
  /** One element of the list (the root array, or the root object's `listKey` array). */
  | { kind: 'item'; value: unknown; index: number; offset: number };

export interface JsonItemOptions {
  /** The file or URL named in errors. */
  where: string;
  /** The largest item (or other root member) accepted, in bytes. */
  maxItemBytes: number;
  /** The root object's member whose array is streamed item by item. */
  listKey: string;
}

/** What the next significant byte of the root may be. */
type State =
  | 'root'
  | 'key-or-end'
  | 'key'
  | 'colon'
  | 'value'
  | 'member-next'
  | 'item-or-end'
  | 'item'
  | 'item-next'
  | 'done';

type Target = 'key' | 'member' | 'item';

const EXPECTED: Readonly<Record<State, string>> = {
  root: 'an object or an array',
  'key-or-end': 'a member name or "}"',
  key: 'a member name',
  colon: '":"',
  value: 'a value',
  'member-next': '"," or "}"',
  'item-or-end': 'a value or "]"',
  item: 'a value',
  'item-next': '"," or "]"',
  done: 'the end of the file (one document per file; JSON Lines files are named .jsonl or .ndjson)',
};

const SINGLE: Readonly<Record<number, string>> = { 123: '{', 125: '}', 91: '[', 93: ']', 58: ':', 44: ',' };

/** The events of each chunk together: one await per chunk, not one per product. */
export async function* readJsonItems(
  chunks: AsyncIterable<Buffer>,
  options: JsonItemOptions,
): AsyncGenerator<JsonItemEvent[]> {
  const splitter = new ItemSplitter(options);
  for await (const chunk of chunks) {
    splitter.push(chunk);
    const events = splitter.take();
    if (events.length > 0) yield events;
  }
  splitter.end();
}

class ItemSplitter {
  private state: State = 'root';
  private rootIsArray = false;
  private key = '';
  private index = 0;
  private offset = 0;
  private capture: { scan: ValueScan; target: Target; start: number } | undefined;
  private events: JsonItemEvent[] = [];
  private head = '';

  constructor(private readonly options: JsonItemOptions) {}

  take(): JsonItemEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  push(chunk: Buffer): void {
    if (this.offset === 0) this.head = chunk.subarray(0, 1024).toString('utf8');
    let at = 0;
    while (at < chunk.length) {
      if (this.capture !== undefined) {
        at = this.continueCapture(this.capture, chunk, at);
        continue;
      }
      const byte = chunk[at] ?? 0;
      if (isJsonSpace(byte)) at += 1;
      else at = this.step(byte, at);
    }
    this.offset += chunk.length;
  }

  end(): void {
    if (this.capture !== undefined) {
      // A scalar ends at its delimiter; at the end of the file it has none, and is cut short.
      const { target } = this.capture;
      this.fail(
        this.offset,
        `it ends inside ${this.describeCapture(target)}`,
        undefined,
        this.itemDetail(target),
      );
    }
    if (this.state === 'root') this.fail(this.offset, 'it is empty');
    if (this.state !== 'done')
      this.fail(this.offset, `it ends before the document closes (expected ${EXPECTED[this.state]})`);
  }

  private continueCapture(
    capture: NonNullable<ItemSplitter['capture']>,
    chunk: Buffer,
    from: number,
  ): number {
    const end = capture.scan.scan(chunk, from);
    if (capture.scan.size > this.options.maxItemBytes) this.tooLarge(capture.target, capture.start);
    if (end === -1) return chunk.length;
    this.capture = undefined;
    this.finish(capture, this.offset + end);
    return end;
  }

  /** Handles one significant byte of the root's grammar; returns where to go on. */
  private step(byte: number, at: number): number {
    const token = SINGLE[byte];
    switch (this.state) {
      case 'root':
        if (token === '{' || token === '[') {
          this.rootIsArray = token === '[';
          this.events.push({ kind: 'root', root: this.rootIsArray ? 'array' : 'object' });
          this.state = this.rootIsArray ? 'item-or-end' : 'key-or-end';
          return at + 1;
        }
        return this.unexpected(at);
      case 'key-or-end':
      case 'key':
        if (token === '}' && this.state === 'key-or-end') return this.close(at);
        if (byte !== 0x22) return this.unexpected(at);
        return this.startCapture('key', byte, at);
      case 'colon':
        if (token !== ':') return this.unexpected(at);
        this.state = 'value';
        return at + 1;
      case 'value':
        if (token === '[' && this.key === this.options.listKey) {
          this.events.push({ kind: 'list' });
          this.state = 'item-or-end';
          return at + 1;
        }
        return this.startCapture('member', byte, at);
      case 'member-next':
        return this.afterValue(token, at, 'key', '}');
      case 'item-or-end':
        if (token === ']') return this.closeList(at);
        return this.startCapture('item', byte, at);
      case 'item':
        if (token === ']' || token === ',') return this.unexpected(at);
        return this.startCapture('item', byte, at);
      case 'item-next':
        return this.afterValue(token, at, 'item', ']');
      case 'done':
        return this.unexpected(at);
    }
  }

  /** After a member or an item: a comma and the next one, or the closing bracket. */
  private afterValue(token: string | undefined, at: number, next: State, closer: '}' | ']'): number {
    if (token === ',') {
      this.state = next;
      return at + 1;
    }
    if (token !== closer) return this.unexpected(at);
    return closer === '}' ? this.close(at) : this.closeList(at);
  }

  private startCapture(target: Target, first: number, at: number): number {
    this.capture = { scan: new ValueScan(first), target, start: this.offset + at };
    return at;
  }

  private close(at: number): number {
    this.state = 'done';
    return at + 1;
  }

  private closeList(at: number): number {
    this.state = this.rootIsArray ? 'done' : 'member-next';
    return at + 1;
  }

  private finish(capture: NonNullable<ItemSplitter['capture']>, endOffset: number): void {
    let value: unknown;
    try {
      value = JSON.parse(capture.scan.text());
    } catch (cause) {
      const what = this.describeCapture(capture.target);
      const words = cause instanceof Error ? `: ${cause.message}` : '';
      const reason = `${what}, from byte ${capture.start} to ${endOffset}, does not parse${words}`;
      this.fail(capture.start, reason, cause, this.itemDetail(capture.target));
    }
    if (capture.target === 'key') {
      this.key = String(value);
      this.state = 'colon';
    } else if (capture.target === 'member') {
      this.events.push({ kind: 'member', key: this.key, value });
      this.state = 'member-next';
    } else {
      this.events.push({ kind: 'item', value, index: this.index, offset: capture.start });
      this.index += 1;
      this.state = 'item-next';
    }
  }

  private describeCapture(target: Target): string {
    if (target === 'item') return `item ${this.index}`;
    return target === 'key' ? 'a member name' : `the member "${this.key}"`;
  }

  private unexpected(at: number): never {
    const offset = this.offset + at;
    const advice = this.state === 'root' ? describeNotJsonFix(this.options.where, this.head) : '';
    const extra = advice === '' ? {} : { html: true };
    return this.fail(offset, `expected ${EXPECTED[this.state]} at byte ${offset}${advice}`, undefined, extra);
  }

  private itemDetail(target: Target): Record<string, unknown> {
    return target === 'item' ? { item: this.index } : {};
  }

  private fail(offset: number, reason: string, cause?: unknown, extra: Record<string, unknown> = {}): never {
    const where = this.options.where;
    throw new CatalogError(
      'UPSTREAM_SHAPE',
      `upstream file ${where} is not valid JSON: ${reason}`,
      { url: where, file: where, offset, ...extra },
      cause === undefined ? undefined : { cause },
    );
  }

  private tooLarge(target: Target, start: number): never {
    const { where, maxItemBytes } = this.options;
    const what = this.describeCapture(target);
    throw new CatalogError(
      'UPSTREAM_TOO_LARGE',
      `${what} of upstream file ${where} (from byte ${start}) is larger than ${maxItemBytes} bytes${describeSizeFix(maxItemBytes)}`,
      {
        url: where,
        file: where,
        offset: start,
        ...(target === 'item' ? { item: this.index } : { member: this.key }),
        maxBytes: maxItemBytes,
        field: 'upstream.max_response_bytes',
      },
    );
  }
}
