/**
 * Products picked out of the catalog (`agent-catalog.json`) while its bytes stream past, so a
 * test of 100,000 products can ask the live handler about a spread of them without parsing
 * a 260 MiB document. It reads the layout the generator writes (`emit/fragments.ts`,
 * `stableJson`): two spaces an indent, the `products` array a top-level key, and each of its
 * elements opening with a line `    {` and closing with `    }` or `    },`. Only the sampled
 * elements are kept, and each is parsed as JSON, so a change of layout fails loudly here
 * (no product sampled, or a parse error) rather than sampling the wrong text.
 */
import { StringDecoder } from 'node:string_decoder';

export interface SampledProduct {
  /** Position in the catalog, from 0. */
  index: number;
  id: string;
  name: string;
  price: string;
  currency: string;
}

export interface CatalogSample {
  /** The catalog's own `count`. */
  count: number | undefined;
  /** Elements of `products` seen. */
  products: number;
  sampled: SampledProduct[];
}

const PRODUCTS_OPEN = '  "products": [';
const ARRAY_CLOSE = /^ {2}\],?$/;
const COUNT = /^ {2}"count": (\d+),?$/;

function toSampled(index: number, text: string): SampledProduct {
  const record = JSON.parse(text) as Partial<Record<'id' | 'name' | 'price' | 'currency', unknown>>;
  const { id, name, price, currency } = record;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof price !== 'string') {
    throw new TypeError(`catalog product ${index} has no string id, name and price`);
  }
  return { index, id, name, price, currency: typeof currency === 'string' ? currency : '' };
}

/** Keeps the products at the positions `pick` accepts; feed it the catalog's chunks in order. */
export function createCatalogSampler(pick: (index: number) => boolean): {
  push(chunk: Uint8Array): void;
  finish(): CatalogSample;
} {
  const decoder = new StringDecoder('utf8');
  const sample: CatalogSample = { count: undefined, products: 0, sampled: [] };
  let carry = '';
  let inProducts = false;
  let kept: string[] | undefined;
  const line = (text: string) => {
    if (!inProducts) {
      const count = COUNT.exec(text);
      if (count) sample.count = Number(count[1]);
      inProducts = text === PRODUCTS_OPEN;
      return;
    }
    if (ARRAY_CLOSE.test(text)) inProducts = false;
    else if (text === '    {') kept = pick(sample.products) ? [text] : undefined;
    else if (text === '    }' || text === '    },') {
      if (kept !== undefined) sample.sampled.push(toSampled(sample.products, `${kept.join('\n')}\n}`));
      kept = undefined;
      sample.products += 1;
    } else kept?.push(text);
  };
  return {
    push(chunk) {
      const lines = (carry + decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length))).split(
        '\n',
      );
      carry = lines.pop() ?? '';
      for (const text of lines) line(text);
    },
    finish() {
      line(carry + decoder.end());
      carry = '';
      return sample;
    },
  };
}
