/**
 * One price changed in the benchmarks' Shopify store file, and which product it was: the
 * first variant price in the file is raised by one whole unit, and the product it belongs
 * to is named by its handle (the slug the Shopify adapter gives it) and id, so a bench can
 * announce the change as the store would and look for the new price on that product's page.
 * The file is edited as text, never parsed whole: at 100,000 products it is 136 MB.
 */
import { readFile, writeFile } from 'node:fs/promises';

export interface PriceChange {
  /** The changed product's Shopify handle (its slug in the bundle). */
  handle: string;
  /** Its Shopify product id. */
  id: number;
  /** The variant's price before and after, as the store file writes them (`"45.78"`). */
  from: string;
  to: string;
}

const PRICE = /"price":"(\d+)\.(\d+)"/;
/** A product's keys, as `JSON.stringify` writes them: a string value never holds an unescaped `"`. */
const HANDLE = /"handle":"([^"\\]+)"/g;
const PRODUCT_ID = /"product_id":(\d+)/g;

/** The last match of the global `pattern` that ends at or before `end`. */
function lastMatchBefore(text: string, pattern: RegExp, end: number): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null && match.index < end; match = pattern.exec(text)) {
    last = match;
  }
  return last;
}

/**
 * Raises the first variant price of a Shopify products document (`{"products":[…]}` or one
 * product a line) by one; returns the new text and what changed. The product is the one
 * whose `handle` comes last before that price (a storefront product lists its handle before
 * its variants) and the variant's own `product_id` gives its id.
 */
export function raiseFirstPrice(text: string): { text: string; change: PriceChange } {
  const match = PRICE.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) throw new Error('no price to change');
  const handle = lastMatchBefore(text, HANDLE, match.index)?.[1];
  if (handle === undefined) throw new Error('no product handle before the first price');
  PRODUCT_ID.lastIndex = match.index;
  const id = PRODUCT_ID.exec(text)?.[1];
  if (id === undefined) throw new Error(`no product_id after the first price of ${handle}`);
  const to = `${Number(match[1]) + 1}.${match[2]}`;
  const raised = `"price":"${to}"`;
  return {
    text: text.slice(0, match.index) + raised + text.slice(match.index + match[0].length),
    change: { handle, id: Number(id), from: `${match[1]}.${match[2]}`, to },
  };
}

/** Raises the first variant price of the store file by one: one product changes. */
export async function raiseOnePrice(fixture: string): Promise<PriceChange> {
  try {
    const { text, change } = raiseFirstPrice(await readFile(fixture, 'utf8'));
    await writeFile(fixture, text);
    return change;
  } catch (error) {
    throw new Error(`${fixture}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
