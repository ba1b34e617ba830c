/**
 * The `shopify_admin` source: a bulk export of the store's products through the Admin
 * GraphQL API, streamed line by line into the on-disk join, then read back as
 * storefront-shaped products (only those shoppers can see), a run at a time. The same JSON
 * Lines can also be
 * read from a file (a result the merchant downloaded), with no token and no request.
 */
import { createReadStream } from 'node:fs';
import { CatalogError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { redactUrl } from '../../http/redact-url.js';
import { splitLines } from '../../http/split-lines.js';
import { resolveAdminEndpoint } from './admin-endpoint.js';
import { toStorefrontProduct } from './admin-product.js';
import { type PollPolicy, runBulkExport } from './bulk-operation.js';
import { type BulkResultStore, openBulkResultStore } from './bulk-result-store.js';

/** Storefront-shaped products, in the export's order, a run at a time. */
export interface AdminBatch {
  items: unknown[];
  /** Products of this run that shoppers cannot see (not active, or not on the online store). */
  hidden: number;
}

/** Products handed on at once: the normaliser maps them while the next run is read. */
const BATCH = 500;

/** No bulk result file is bigger than this, whatever Shopify reports (a bound on the read). */
const MAX_RESULT_BYTES = 64 * 1024 ** 3;

async function fillStore(store: BulkResultStore, lines: AsyncIterable<string>, where: string): Promise<void> {
  let number = 0;
  for await (const line of lines) {
    number += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new CatalogError(
        'UPSTREAM_SHAPE',
        `line ${number} of the bulk result at ${where} is not JSON`,
        {
          url: where,
          line: number,
        },
        { cause },
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new CatalogError(
        'UPSTREAM_SHAPE',
        `line ${number} of the bulk result at ${where} is not a JSON object`,
        {
          url: where,
          line: number,
        },
      );
    }
    store.add(value as Record<string, unknown>);
  }
}

async function* readFromLines(lines: AsyncIterable<string>, where: string): AsyncGenerator<AdminBatch> {
  const store = openBulkResultStore();
  try {
    await fillStore(store, lines, where);
    let batch: AdminBatch = { items: [], hidden: 0 };
    for (const { product, children } of store.products()) {
      const item = toStorefrontProduct(product, children);
      if (item === undefined) batch.hidden += 1;
      else batch.items.push(item);
      if (batch.items.length + batch.hidden >= BATCH) {
        yield batch;
        batch = { items: [], hidden: 0 };
      }
    }
    yield batch;
  } finally {
    store.close();
  }
}

export function readAdminExportFile(path: string, maxLineBytes: number): AsyncGenerator<AdminBatch> {
  const lines = splitLines(createReadStream(path), path, { maxLineBytes, maxTotalBytes: MAX_RESULT_BYTES });
  return readFromLines(lines, path);
}

export async function* fetchAdminProducts(
  client: HttpClient,
  source: URL,
  options: {
    token: string;
    maxLineBytes: number;
    sleep: (ms: number) => Promise<void>;
    poll?: PollPolicy;
    signal?: AbortSignal;
  },
): AsyncGenerator<AdminBatch> {
  const endpoint = resolveAdminEndpoint(source);
  const api = {
    endpoint,
    token: options.token,
    client,
    sleep: options.sleep,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const operation = await runBulkExport(api, options.poll);
  if (operation.url === null) {
    yield { items: [], hidden: 0 };
    return;
  }
  // The result lives on Shopify's file storage behind a signed URL: no token goes there.
  const maxTotalBytes = operation.fileSize > 0 ? operation.fileSize + 1024 * 1024 : MAX_RESULT_BYTES;
  const lines = client.streamLines(
    operation.url,
    { maxLineBytes: options.maxLineBytes, maxTotalBytes },
    options.signal,
  );
  yield* readFromLines(lines, redactUrl(operation.url));
}
