/**
 * Reads an upstream file as a build does and prints what came out, for the read bench:
 * `node read-child.js <file> held|dropped`. `held` is `fetchUpstream`, every record kept
 * in memory as the build still does; `dropped` streams the same batches through a
 * normaliser per batch and lets each batch's records go, which is the read's own cost (the
 * memory a build will have once its records go to an on-disk store). Bench only.
 */
import { upstreamSchema } from '../../generator/config-sections.js';
import { createMemoryLogger } from '../../generator/logger.js';
import { createNormaliser } from '../../generator/normalise/index.js';
import { fetchUpstream } from '../../generator/sources/index.js';
import { readFileBatches } from '../../generator/sources/read-file.js';

const [file = '', mode = 'held'] = process.argv.slice(2);
// An hour and the default per-product bound: the file's size is not capped.
const upstream = upstreamSchema.parse({ source: file, timeout_ms: 3_600_000 });
const context = { siteUrl: 'https://shop.example', currency: 'USD', comingSoonTag: upstream.coming_soon_tag };

async function readDropped(): Promise<{ products: number; rejected: number }> {
  let products = 0;
  let rejected = 0;
  const batches = readFileBatches(file, { format: undefined, maxItemBytes: upstream.max_response_bytes });
  for await (const batch of batches) {
    const normaliser = createNormaliser(batch.shape, context);
    for (const item of batch.items) normaliser.add(item);
    const result = normaliser.finish();
    products += result.products.length;
    rejected += result.rejected.length;
  }
  return { products, rejected };
}

async function readHeld(): Promise<{ products: number; rejected: number }> {
  const result = await fetchUpstream(upstream, {
    configDir: '/',
    siteUrl: context.siteUrl,
    currency: context.currency,
    userAgent: 'agent-catalog-bench',
    logger: createMemoryLogger(),
  });
  return { products: result.products.length, rejected: result.rejected.length };
}

const counts = mode === 'dropped' ? await readDropped() : await readHeld();
process.stdout.write(`${JSON.stringify(counts)}\n`);
