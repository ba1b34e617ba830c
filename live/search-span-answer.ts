/**
 * The answer to a price range open at one end with no words ("from $x", "under $y"): at
 * 1,000,000 products it can hold nearly all of them, and the caller reads a page of 10.
 * Writing the whole answer out (4 MB, a million writes, then a copy to keep it for the
 * next page, which pushed every other kept answer out) cost a "from $x" question 6 to 11
 * ms of CPU. This counts the products each block lets through in one pass that writes
 * nothing, and writes only the products of the page asked for, found from the counts and
 * a pass over one block or two. The order is the same: catalog order.
 */

/** A search's answer: how many products match, and those at positions [start, end) of its order. */
export interface SearchAnswer {
  readonly length: number;
  subarray(start?: number, end?: number): Uint32Array;
}

/** Per block of products, their span values (and facets, when categories are asked for). */
export interface SpanBlocks {
  readonly spans: readonly ArrayLike<number>[];
  readonly facets: readonly ArrayLike<number>[] | undefined;
  /** Per category, 1 when the query asks for it; undefined when it asks for none. */
  readonly allowed: Uint8Array | undefined;
  /** Products per block (every block but the last is full). */
  readonly blockSize: number;
}

export class SpanAnswer implements SearchAnswer {
  readonly length: number;
  /** Per block, how many products the blocks before it let through (and the total last). */
  private readonly before: Float64Array;

  constructor(
    private readonly blocks: SpanBlocks,
    private readonly low: number,
    private readonly high: number,
  ) {
    const { spans } = blocks;
    this.before = new Float64Array(spans.length + 1);
    for (let block = 0; block < spans.length; block += 1) {
      this.before[block + 1] = (this.before[block] as number) + this.countIn(block);
    }
    this.length = this.before[spans.length] as number;
  }

  /** Like a typed array's `subarray`: negative positions count from the end. */
  subarray(start = 0, end = this.length): Uint32Array {
    const from = clampPosition(start, this.length);
    const to = Math.max(from, clampPosition(end, this.length));
    const found = new Uint32Array(to - from);
    if (found.length === 0) return found;
    let block = 0;
    while ((this.before[block + 1] as number) <= from) block += 1;
    let skip = from - (this.before[block] as number);
    let size = 0;
    for (; block < this.blocks.spans.length && size < found.length; block += 1) {
      const values = this.blocks.spans[block] as ArrayLike<number>;
      const first = block * this.blocks.blockSize;
      for (let index = 0; index < values.length && size < found.length; index += 1) {
        if (!this.passes(block, index)) continue;
        if (skip > 0) skip -= 1;
        else {
          found[size] = first + index;
          size += 1;
        }
      }
    }
    return found;
  }

  private passes(block: number, index: number): boolean {
    const value = (this.blocks.spans[block] as ArrayLike<number>)[index] as number;
    if (value < this.low || value > this.high) return false;
    const { allowed, facets } = this.blocks;
    return !allowed || allowed[((facets?.[block]?.[index] as number | undefined) ?? 0) >>> 2] === 1;
  }

  /**
   * How many products of a block pass. It runs a million times at 1,000,000 products:
   * without categories each value adds 0 or 1, no branch to mispredict over random prices.
   */
  private countIn(block: number): number {
    const values = this.blocks.spans[block] as ArrayLike<number>;
    const { low, high } = this;
    if (!this.blocks.allowed) {
      let count = 0;
      for (let index = 0; index < values.length; index += 1) {
        const value = values[index] as number;
        count += Number(value >= low) & Number(value <= high);
      }
      return count;
    }
    let count = 0;
    for (let index = 0; index < values.length; index += 1) if (this.passes(block, index)) count += 1;
    return count;
  }
}

function clampPosition(position: number, length: number): number {
  const at = Math.trunc(position);
  return at < 0 ? Math.max(0, length + at) : Math.min(at, length);
}
